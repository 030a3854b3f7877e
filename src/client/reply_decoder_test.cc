#include "client/reply_decoder.h"

#include <gtest/gtest.h>

#include "higgins/arrow/ipc/writer.h"

namespace higgins::client_internal {
namespace {

namespace wire = higgins::wire;

wire::Message ErrorReply(wire::Error::Type type, const std::string& text) {
  wire::Message m;
  m.set_type(wire::Message::ERROR);
  m.mutable_error()->set_type(type);
  m.mutable_error()->set_message(text);
  return m;
}

wire::Message ProduceReply() {
  wire::Message m;
  m.set_type(wire::Message::PRODUCERESPONSE);
  auto* r = m.mutable_produceresponse();
  r->add_partitions("a");
  r->add_partitions("b");
  for (uint32_t i : {0u, 1u, 0u}) r->add_partition_indexes(i);
  for (uint64_t o : {5u, 0u, 6u}) r->add_offsets(o);
  r->set_timestamp(1700000000000);
  return m;
}

arrow::SchemaPtr AmountSchema() {
  return arrow::MakeSchema({arrow::Field("id", arrow::DataType::Utf8(), false),
                            arrow::Field("data", arrow::DataType::Int32(), false)});
}

arrow::RecordBatch AmountRows(std::initializer_list<int32_t> values) {
  arrow::ArrayBuilder ids(arrow::DataType::Utf8());
  arrow::ArrayBuilder data(arrow::DataType::Int32());
  for (int32_t v : values) {
    EXPECT_TRUE(ids.AppendBinary("k").ok());
    data.AppendPrimitive<int32_t>(v);
  }
  return *arrow::RecordBatch::Make(AmountSchema(), static_cast<int64_t>(values.size()),
                                   {ids.Finish(), data.Finish()});
}

wire::Message QueryReply(const std::vector<arrow::RecordBatch>& batches, uint64_t count) {
  wire::Message m;
  m.set_type(wire::Message::GETINDEXRESPONSE);
  wire::Record* record = m.mutable_getindexresponse()->add_records();
  auto ipc = arrow::ipc::WriteStream(AmountSchema(), batches);
  EXPECT_TRUE(ipc.ok());
  record->set_data(std::string(ipc->view()));
  record->set_stream("amount");
  record->set_partition(std::string("k") + std::string(31, '\0'));
  record->set_offset(7);
  record->set_count(count);
  for (uint64_t i = 0; i < count; ++i) record->add_timestamps(100 + i);
  return m;
}

TEST(ReplyDecoderTest, ErrorMessagesKeepTheBrokersText) {
  Status s = DecodeStatusReply(ErrorReply(wire::Error::UNIMPLEMENTED, "unknown operation 99"),
                               wire::Message::UPLOADMODULERESPONSE);
  EXPECT_EQ(s, Status::NotSupported("unknown operation 99"));
  EXPECT_EQ(ErrorStatus(ErrorReply(wire::Error::MALFORMED_MESSAGE, "m").error()).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(ErrorStatus(ErrorReply(wire::Error::OVERLOADED, "o").error()).code(),
            StatusCode::kResourceExhausted);
  EXPECT_EQ(ErrorStatus(ErrorReply(wire::Error::UNKNOWN, "").error()),
            Status::Internal("the broker answered UNKNOWN"));
}

TEST(ReplyDecoderTest, ReplyOfAnotherTypeIsCorruption) {
  auto produced = DecodeProduce(ErrorReply(wire::Error::UNKNOWN, "x"));
  EXPECT_EQ(produced.status().code(), StatusCode::kInternal);
  wire::Message pong;
  pong.set_type(wire::Message::PONG);
  auto records = DecodeRecords(pong);
  EXPECT_EQ(records.status(), Status::Corruption("expected a GETINDEXRESPONSE reply, got PONG"));
}

TEST(ReplyDecoderTest, OperationErrorsJoinLinesUnderTheBrokersCode) {
  wire::Message m;
  m.set_type(wire::Message::CREATECONFIGURATIONRESPONSE);
  m.mutable_createconfigurationresponse()->add_errors("schema.a: unknown type 'int33'");
  m.mutable_createconfigurationresponse()->add_errors("streams.b: no schema");
  m.mutable_createconfigurationresponse()->set_code(wire::INVALID_ARGUMENT);
  EXPECT_EQ(DecodeStatusReply(m, wire::Message::CREATECONFIGURATIONRESPONSE),
            Status::InvalidArgument("schema.a: unknown type 'int33'\nstreams.b: no schema"));
  // A code without text still fails; errors without a code (replies that have none) too.
  m.mutable_createconfigurationresponse()->clear_errors();
  EXPECT_EQ(DecodeStatusReply(m, wire::Message::CREATECONFIGURATIONRESPONSE).code(),
            StatusCode::kInvalidArgument);
  wire::Message topography;
  topography.set_type(wire::Message::GETCURRENTTOPOGRAPHYRESPONSE);
  topography.mutable_getcurrenttopographyresponse()->add_errors("broken");
  EXPECT_EQ(DecodeTopography(topography).status(), Status::Internal("broken"));
}

TEST(ReplyDecoderTest, ProduceListsEveryRowsPartitionAndOffset) {
  auto produced = DecodeProduce(ProduceReply());
  ASSERT_TRUE(produced.ok()) << produced.status().ToString();
  EXPECT_EQ(produced->num_rows(), 3u);
  EXPECT_EQ(produced->partition_of(1), "b");
  EXPECT_EQ(produced->offsets, (std::vector<uint64_t>{5, 0, 6}));
  EXPECT_EQ(produced->timestamp_ms, 1700000000000u);
}

TEST(ReplyDecoderTest, ProducePartitionIndexOutOfRangeIsCorruption) {
  wire::Message m = ProduceReply();
  m.mutable_produceresponse()->set_partition_indexes(2, 2);
  EXPECT_EQ(DecodeProduce(m).status().code(), StatusCode::kCorruption);
  m = ProduceReply();
  m.mutable_produceresponse()->add_offsets(9);
  EXPECT_EQ(DecodeProduce(m).status().code(), StatusCode::kCorruption);
}

TEST(ReplyDecoderTest, RecordsConcatenateBatchesAndUnpadTheKey) {
  auto records = DecodeRecords(QueryReply({AmountRows({1, 2}), AmountRows({3})}, 3));
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  EXPECT_EQ(records->stream, "amount");
  EXPECT_EQ(records->partition_key, "k");
  EXPECT_EQ(records->offset, 7u);
  EXPECT_EQ(records->timestamps_ms, (std::vector<uint64_t>{100, 101, 102}));
  EXPECT_TRUE(records->batch.Equals(AmountRows({1, 2, 3})));
}

TEST(ReplyDecoderTest, RecordsWithDamagedDataOrCountsAreCorruption) {
  wire::Message damaged = QueryReply({AmountRows({1})}, 1);
  damaged.mutable_getindexresponse()->mutable_records(0)->mutable_data()->resize(20);
  EXPECT_EQ(DecodeRecords(damaged).status().code(), StatusCode::kCorruption);
  EXPECT_EQ(DecodeRecords(QueryReply({AmountRows({1})}, 2)).status().code(),
            StatusCode::kCorruption);
  wire::Message two = QueryReply({AmountRows({1})}, 1);
  *two.mutable_getindexresponse()->add_records() = two.getindexresponse().records(0);
  EXPECT_EQ(DecodeRecords(two).status().code(), StatusCode::kCorruption);
  wire::Message bad_key = QueryReply({AmountRows({1})}, 1);
  bad_key.mutable_getindexresponse()->mutable_records(0)->set_partition(std::string(32, '\0'));
  EXPECT_EQ(DecodeRecords(bad_key).status().code(), StatusCode::kCorruption);
}

TEST(ReplyDecoderTest, CreateConfigurationListsTheCatchUps) {
  wire::Message m;
  m.set_type(wire::Message::CREATECONFIGURATIONRESPONSE);
  auto none = DecodeCreateConfiguration(m);
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_TRUE(none->empty());
  wire::CatchUp* doubled = m.mutable_createconfigurationresponse()->add_catch_ups();
  doubled->set_stream("doubled");
  doubled->set_records(40080);
  m.mutable_createconfigurationresponse()->add_catch_ups()->set_stream("empty");
  auto catch_ups = DecodeCreateConfiguration(m);
  ASSERT_TRUE(catch_ups.ok()) << catch_ups.status().ToString();
  EXPECT_EQ(*catch_ups, (std::vector<CatchUp>{{"doubled", 40080}, {"empty", 0}}));
  m.mutable_createconfigurationresponse()->add_errors("streams.b: no schema");
  m.mutable_createconfigurationresponse()->set_code(wire::INVALID_ARGUMENT);
  EXPECT_EQ(DecodeCreateConfiguration(m).status(), Status::InvalidArgument("streams.b: no schema"));
}

TEST(ReplyDecoderTest, MetadataDecodesTheSchema) {
  wire::Message m;
  m.set_type(wire::Message::METADATARESPONSE);
  wire::StreamMetadata* s = m.mutable_metadataresponse()->add_streams();
  s->set_name("amount");
  s->set_kind("source");
  s->set_partition_count(1);
  s->add_partitions()->set_key("k");
  s->mutable_partitions(0)->set_count(4);
  auto schema_only = arrow::ipc::WriteStream(AmountSchema(), {});
  ASSERT_TRUE(schema_only.ok());
  s->set_arrow_schema(std::string(schema_only->view()));
  auto streams = DecodeMetadata(m);
  ASSERT_TRUE(streams.ok()) << streams.status().ToString();
  ASSERT_EQ(streams->size(), 1u);
  EXPECT_EQ((*streams)[0].name, "amount");
  EXPECT_EQ((*streams)[0].partitions[0].count, 4u);
  EXPECT_EQ(*(*streams)[0].schema, *AmountSchema());
  EXPECT_EQ((*streams)[0].lag, 0u);
  m.mutable_metadataresponse()->mutable_streams(0)->set_lag(12);
  streams = DecodeMetadata(m);
  ASSERT_TRUE(streams.ok()) << streams.status().ToString();
  EXPECT_EQ((*streams)[0].lag, 12u);

  m.mutable_metadataresponse()->mutable_streams(0)->set_arrow_schema("not arrow");
  EXPECT_EQ(DecodeMetadata(m).status().code(), StatusCode::kCorruption);
}

}  // namespace
}  // namespace higgins::client_internal
