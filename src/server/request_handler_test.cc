// The native (protobuf) adapter against a fake broker API: what each wire request becomes as a
// broker call, and what each broker answer becomes on the wire. No sockets, no storage.
#include "server/request_handler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "arrow/json/json_reader.h"
#include "higgins/arrow/ipc/reader.h"
#include "protocol/partition_name.h"
#include "server/testing/fake_broker_api.h"

namespace higgins::server {
namespace {

using higgins::wire::Index;
using higgins::wire::Message;
using testing::FakeBrokerApi;

arrow::SchemaPtr AmountSchema() {
  return arrow::MakeSchema({arrow::Field("id", arrow::DataType::Utf8(), false),
                            arrow::Field("data", arrow::DataType::Int32())});
}

class RequestHandlerTest : public ::testing::Test {
 protected:
  /// Handles `request` and returns its one reply (the fake answers synchronously, and the
  /// administrative executor is drained by destroying the handler).
  Message Handle(Message request) {
    request.set_correlationid(42);
    std::vector<Message> replies;
    {
      RequestHandler handler(&broker_, max_reply_bytes_);
      handler.Handle(request, [&](Message m) { replies.push_back(std::move(m)); });
    }
    EXPECT_EQ(replies.size(), 1u);
    if (replies.empty()) return Message();
    EXPECT_EQ(replies[0].correlationid(), 42u);
    return replies[0];
  }
  static Message GetIndex(Index::Type type, std::string_view stream, std::string_view key) {
    Message m;
    m.set_type(Message::GETINDEXREQUEST);
    Index* index = m.mutable_getindexrequest()->add_indexes();
    index->set_type(type);
    index->set_stream(std::string(stream));
    index->set_partition(std::string(key));
    return m;
  }
  /// An answer of `json` rows of AmountSchema from `first_offset`.
  static broker::QueryAnswer Answer(std::string_view json, uint64_t first_offset) {
    broker::QueryAnswer answer;
    answer.schema = AmountSchema();
    auto batch = arrow::json::ReadJson(json, answer.schema);
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    answer.rows.batch = *std::move(batch);
    answer.rows.first_offset = first_offset;
    answer.rows.timestamps_ms.assign(static_cast<size_t>(answer.rows.batch.num_rows()), 1000);
    return answer;
  }

  /// A produce result of one record of partition "a" at `offset`.
  static stream::ProduceResult OneRecordAt(uint64_t offset) {
    stream::ProduceResult result;
    result.partitions = {"a"};
    result.partition_indexes = {0};
    result.offsets = {offset};
    return result;
  }

  FakeBrokerApi broker_;
  size_t max_reply_bytes_ = 1u << 20;  // the frame limit of the handler
};

/// `n` rows of AmountSchema, all with id `key`, data 0 to n - 1, as JSON.
std::string RowsOf(const std::string& key, int n) {
  std::string json = "[";
  for (int i = 0; i < n; ++i) {
    json += (i == 0 ? "" : ",") + std::string(R"({"id":")") + key + R"(","data":)" +
            std::to_string(i) + "}";
  }
  return json + "]";
}

TEST_F(RequestHandlerTest, AProduceBecomesOneBrokerProduceAndItsOffsetsAreAnswered) {
  stream::ProduceResult result;
  result.partitions = {"a", "b"};
  result.partition_indexes = {0, 1, 0};
  result.offsets = {7, 0, 8};
  result.timestamp_ms = 1234;
  broker_.produce_result = result;
  Message request;
  request.set_type(Message::PRODUCEREQUEST);
  request.mutable_producerequest()->set_stream_name("amount");
  request.mutable_producerequest()->set_payload(R"([{"id":"a"},{"id":"b"},{"id":"a"}])");
  request.mutable_producerequest()->set_format(higgins::wire::JSON);

  Message reply = Handle(request);

  ASSERT_EQ(broker_.produces.size(), 1u);
  EXPECT_EQ(broker_.produces[0].stream, "amount");
  EXPECT_EQ(broker_.produces[0].payload, R"([{"id":"a"},{"id":"b"},{"id":"a"}])");
  EXPECT_EQ(broker_.produces[0].format, stream::PayloadFormat::kJson);
  EXPECT_TRUE(broker_.waited_for_derived.empty());
  ASSERT_EQ(reply.type(), Message::PRODUCERESPONSE);
  const auto& body = reply.produceresponse();
  EXPECT_EQ(body.errors_size(), 0);
  ASSERT_EQ(body.offsets_size(), 3);
  EXPECT_EQ(body.offsets(0), 7u);
  EXPECT_EQ(body.offsets(2), 8u);
  ASSERT_EQ(body.partitions_size(), 2);
  EXPECT_EQ(body.partitions(1), "b");
  EXPECT_EQ(body.partition_indexes(1), 1u);
  EXPECT_EQ(body.timestamp(), 1234u);
}

TEST_F(RequestHandlerTest, ANewDerivedStreamsCatchUpIsInTheConfigurationReply) {
  broker::ConfigurationOutcome outcome;
  outcome.merged.added_streams = {"doubled", "total"};
  outcome.catch_ups = {{"doubled", 40080}, {"total", 0}};
  broker_.configuration_outcome = outcome;
  Message request;
  request.set_type(Message::CREATECONFIGURATIONREQUEST);
  request.mutable_createconfigurationrequest()->set_data("[streams.doubled]\n");

  Message reply = Handle(request);

  ASSERT_EQ(reply.type(), Message::CREATECONFIGURATIONRESPONSE);
  const auto& body = reply.createconfigurationresponse();
  EXPECT_EQ(body.errors_size(), 0);
  ASSERT_EQ(body.catch_ups_size(), 2);
  EXPECT_EQ(body.catch_ups(0).stream(), "doubled");
  EXPECT_EQ(body.catch_ups(0).records(), 40080u);
  EXPECT_EQ(body.catch_ups(1).stream(), "total");
  EXPECT_EQ(body.catch_ups(1).records(), 0u);
}

TEST_F(RequestHandlerTest, TheStreamsListingCarriesEachDerivedStreamsLag) {
  broker::StreamInfo source;
  source.name = "amount";
  source.kind = "source";
  source.schema = AmountSchema();
  broker::StreamInfo map = source;
  map.name = "doubled";
  map.kind = "map";
  map.lag = 17;
  broker_.metadata = std::vector<broker::StreamInfo>{source, map};
  Message request;
  request.set_type(Message::METADATAREQUEST);
  request.mutable_metadatarequest();

  Message reply = Handle(request);

  const auto& body = reply.metadataresponse();
  ASSERT_EQ(body.streams_size(), 2);
  EXPECT_EQ(body.streams(0).lag(), 0u);
  EXPECT_EQ(body.streams(1).name(), "doubled");
  EXPECT_EQ(body.streams(1).lag(), 17u);
}

TEST_F(RequestHandlerTest, AFailedProduceCarriesTheBrokersErrorAndCode) {
  broker_.produce_result = Status::InvalidArgument("row 2, field 'data': not an int32");
  Message request;
  request.set_type(Message::PRODUCEREQUEST);
  request.mutable_producerequest()->set_stream_name("amount");
  request.mutable_producerequest()->set_payload("{}");

  Message reply = Handle(request);

  const auto& body = reply.produceresponse();
  ASSERT_EQ(body.errors_size(), 1);
  EXPECT_EQ(body.errors(0), "row 2, field 'data': not an int32");
  EXPECT_EQ(body.code(), higgins::wire::INVALID_ARGUMENT);
  EXPECT_EQ(body.offsets_size(), 0);
}

TEST_F(RequestHandlerTest, AProduceThatWaitsForDerivedStreamsSaysTheRecordsWereCommitted) {
  broker_.produce_result = OneRecordAt(3);
  broker_.wait_status = Status::DeadlineExceeded("'doubled' partition 'a' has 3 of 4 records");
  Message request;
  request.set_type(Message::PRODUCEREQUEST);
  request.mutable_producerequest()->set_stream_name("amount");
  request.mutable_producerequest()->set_payload(R"({"id":"a"})");
  request.mutable_producerequest()->set_wait_for_derived(true);

  Message reply = Handle(request);

  ASSERT_EQ(broker_.waited_for_derived.size(), 1u);
  EXPECT_EQ(broker_.waited_for_derived[0], "amount");
  const auto& body = reply.produceresponse();
  ASSERT_EQ(body.offsets_size(), 1);
  EXPECT_EQ(body.offsets(0), 3u);
  ASSERT_EQ(body.errors_size(), 1);
  EXPECT_NE(body.errors(0).find("the records were committed"), std::string::npos) << body.errors(0);
  EXPECT_NE(body.errors(0).find("has 3 of 4 records"), std::string::npos) << body.errors(0);
}

TEST_F(RequestHandlerTest, AnExceptionBelowTheAdapterIsAnsweredNotPropagated) {
  broker_.throw_on_produce = true;
  Message request;
  request.set_type(Message::PRODUCEREQUEST);
  request.mutable_producerequest()->set_stream_name("amount");
  request.mutable_producerequest()->set_payload("{}");

  Message reply = Handle(request);

  ASSERT_EQ(reply.type(), Message::ERROR);
  EXPECT_EQ(reply.error().type(), higgins::wire::Error::UNKNOWN);
  EXPECT_NE(reply.error().message().find("out of memory in a library"), std::string::npos);
}

Message ProduceTo(std::string_view stream, uint64_t id) {
  Message m;
  m.set_type(Message::PRODUCEREQUEST);
  m.set_correlationid(id);
  m.mutable_producerequest()->set_stream_name(std::string(stream));
  m.mutable_producerequest()->set_payload(R"({"id":"a"})");
  return m;
}

// Produces handled together reach the broker as runs to one stream; each gets its own reply.
TEST_F(RequestHandlerTest, QueuedProducesGoToTheBrokerAsRunsToOneStream) {
  broker_.produce_result = OneRecordAt(1);
  std::vector<Message> replies;
  std::vector<RequestHandler::QueuedProduce> queued;
  const char* streams[] = {"x", "x", "x", "y", "x", "x"};
  for (uint64_t i = 0; i < 6; ++i) {
    queued.push_back({ProduceTo(streams[i], 100 + i), [&](Message m) { replies.push_back(m); }});
  }
  Message ping;
  ping.set_type(Message::PING);
  ping.set_correlationid(200);
  ping.mutable_ping()->set_data("x");
  queued.push_back({ping, [&](Message m) { replies.push_back(m); }});
  {
    RequestHandler handler(&broker_, 1u << 20);
    handler.HandleProduces(queued);
  }
  EXPECT_EQ(broker_.produce_many_sizes, (std::vector<size_t>{3, 1, 2}));
  ASSERT_EQ(broker_.produces.size(), 6u);
  EXPECT_EQ(broker_.produces[3].stream, "y");
  ASSERT_EQ(replies.size(), 7u);
  for (uint64_t i = 0; i < 6; ++i) {
    EXPECT_EQ(replies[i].correlationid(), 100 + i);
    EXPECT_EQ(replies[i].type(), Message::PRODUCERESPONSE);
    EXPECT_EQ(replies[i].produceresponse().offsets_size(), 1);
  }
  EXPECT_EQ(replies[6].type(), Message::PONG);
}

TEST_F(RequestHandlerTest, AnUnknownPayloadFormatIsRefusedAloneAndTheOthersAreProduced) {
  broker_.produce_result = OneRecordAt(1);
  std::vector<Message> replies;
  std::vector<RequestHandler::QueuedProduce> queued;
  for (uint64_t i = 0; i < 3; ++i) {
    queued.push_back({ProduceTo("x", 100 + i), [&](Message m) { replies.push_back(m); }});
  }
  queued[1].request.mutable_producerequest()->set_format(
      static_cast<higgins::wire::PayloadFormat>(7));
  {
    RequestHandler handler(&broker_, 1u << 20);
    handler.HandleProduces(queued);
  }
  EXPECT_EQ(broker_.produces.size(), 2u);
  ASSERT_EQ(replies.size(), 3u);
  EXPECT_EQ(replies[0].produceresponse().offsets_size(), 1);
  EXPECT_EQ(replies[2].produceresponse().offsets_size(), 1);
  const auto& refused = replies[1].produceresponse();
  EXPECT_EQ(replies[1].correlationid(), 101u);
  EXPECT_EQ(refused.code(), higgins::wire::INVALID_ARGUMENT);
  ASSERT_EQ(refused.errors_size(), 1);
  EXPECT_EQ(refused.errors(0), "unknown payload format 7 (AUTO = 0, JSON = 1, ARROW_IPC = 2)");
  EXPECT_EQ(refused.offsets_size(), 0);
}

TEST_F(RequestHandlerTest, AnExceptionBelowQueuedProducesAnswersEachOfThem) {
  broker_.throw_on_produce = true;
  std::vector<Message> replies;
  std::vector<RequestHandler::QueuedProduce> queued;
  for (uint64_t i = 0; i < 3; ++i) {
    queued.push_back({ProduceTo("x", 100 + i), [&](Message m) { replies.push_back(m); }});
  }
  RequestHandler handler(&broker_, 1u << 20);
  handler.HandleProduces(queued);
  ASSERT_EQ(replies.size(), 3u);
  for (uint64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(replies[i].type(), Message::ERROR);
    EXPECT_EQ(replies[i].correlationid(), 100 + i);
  }
}

TEST_F(RequestHandlerTest, WireIndexesBecomeTypedQueriesWithUnpaddedKeys) {
  broker_.query_answer = Answer(R"({"id":"k","data":5})", 9);
  Message request = GetIndex(Index::RANGE, "amount", protocol::EncodePartitionName("k"));
  request.mutable_getindexrequest()->mutable_indexes(0)->set_index(9);
  request.mutable_getindexrequest()->mutable_indexes(0)->set_end(20);
  Index* latest = request.mutable_getindexrequest()->add_indexes();
  latest->set_type(Index::LATEST);
  latest->set_stream("amount");
  latest->set_partition("k");
  Index* at_time = request.mutable_getindexrequest()->add_indexes();
  at_time->set_type(Index::TIMESTAMP);
  at_time->set_stream("amount");
  at_time->set_partition("k");
  at_time->set_timestamp(5000);

  Message reply = Handle(request);

  ASSERT_EQ(broker_.queries.size(), 3u);
  EXPECT_EQ(broker_.queries[0].stream, "amount");
  EXPECT_EQ(broker_.queries[0].key, "k");  // the 32-byte padded form is undone
  EXPECT_EQ(broker_.queries[0].kind, broker::QueryRequest::Kind::kRange);
  EXPECT_EQ(broker_.queries[0].offset, Offset(9));
  EXPECT_EQ(broker_.queries[0].end, Offset(20));
  EXPECT_EQ(broker_.queries[1].kind, broker::QueryRequest::Kind::kLatest);
  EXPECT_EQ(broker_.queries[2].kind, broker::QueryRequest::Kind::kTimestamp);
  EXPECT_EQ(broker_.queries[2].timestamp_ms, 5000);
  EXPECT_EQ(reply.getindexresponse().errors_size(), 0);
  EXPECT_EQ(reply.getindexresponse().records_size(), 3);
}

TEST_F(RequestHandlerTest, AnAnswerBecomesARecordWhoseDataIsAnArrowStream) {
  broker_.query_answer = Answer(R"([{"id":"k","data":5},{"id":"k","data":6}])", 4);
  Message request = GetIndex(Index::RANGE, "amount", "k");
  request.mutable_getindexrequest()->mutable_indexes(0)->set_index(4);

  Message reply = Handle(request);

  ASSERT_EQ(reply.getindexresponse().records_size(), 1);
  const auto& record = reply.getindexresponse().records(0);
  EXPECT_EQ(record.stream(), "amount");
  EXPECT_EQ(record.offset(), 4u);
  EXPECT_EQ(record.count(), 2u);
  ASSERT_EQ(record.timestamps_size(), 2);
  EXPECT_EQ(record.timestamps(1), 1000u);
  auto read = arrow::ipc::ReadStream(
      Buffer::FromVector(std::vector<uint8_t>(record.data().begin(), record.data().end())));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->batches.size(), 1u);
  EXPECT_EQ(read->batches[0].num_rows(), 2);
  EXPECT_EQ(read->batches[0].column(1).Value<int32_t>(1), 6);
}

TEST_F(RequestHandlerTest, AMalformedIndexIsRefusedWithoutAskingTheBroker) {
  Message reply = Handle(GetIndex(Index::OFFSET, "amount", "k"));  // no `index`

  EXPECT_TRUE(broker_.queries.empty());
  const auto& body = reply.getindexresponse();
  ASSERT_EQ(body.errors_size(), 1);
  EXPECT_EQ(body.errors(0), "index 0: stream 'amount': an OFFSET index needs `index`");
  EXPECT_EQ(body.code(), higgins::wire::INVALID_ARGUMENT);
}

TEST_F(RequestHandlerTest, ABrokerErrorIsNumberedByItsIndexAndDropsTheOtherRecords) {
  broker_.query_answer = Status::NotFound("stream 'nope' does not exist");
  Message request = GetIndex(Index::LATEST, "nope", "k");

  Message reply = Handle(request);

  const auto& body = reply.getindexresponse();
  EXPECT_EQ(body.records_size(), 0);
  ASSERT_EQ(body.errors_size(), 1);
  EXPECT_EQ(body.errors(0), "index 0: stream 'nope' does not exist");
  EXPECT_EQ(body.code(), higgins::wire::NOT_FOUND);
}

TEST_F(RequestHandlerTest, ARangeOverTheFrameLimitIsCutToWhatFits) {
  std::string json = "[";
  for (int i = 0; i < 4000; ++i) {
    if (i > 0) json += ",";
    json += R"({"id":")" + std::string(300, 'x') + R"(","data":)" + std::to_string(i) + "}";
  }
  json += "]";
  broker_.query_answer = Answer(json, 0);
  Message request = GetIndex(Index::RANGE, "amount", "k");
  request.mutable_getindexrequest()->mutable_indexes(0)->set_index(0);

  Message reply = Handle(request);  // a 1 MiB limit; the answer is about 1.2 MiB

  const auto& body = reply.getindexresponse();
  ASSERT_EQ(body.errors_size(), 0) << body.errors(0);
  ASSERT_EQ(body.records_size(), 1);
  EXPECT_GT(body.records(0).count(), 0u);
  EXPECT_LT(body.records(0).count(), 4000u);
  EXPECT_LE(reply.ByteSizeLong(), 1u << 20);
}

// Everything a Record carries counts: here the key, 1500 bytes in the batch and again in
// Record.partition. Two records would pass 4096 bytes; the range answers one, and the client
// asks again from offset 1.
TEST_F(RequestHandlerTest, ARangeUnderALongKeyAnswersTheRecordsThatFit) {
  max_reply_bytes_ = 4096;
  const std::string key(1500, 'k');
  broker_.query_answer = Answer(RowsOf(key, 3), 0);
  Message request = GetIndex(Index::RANGE, "amount", key);
  request.mutable_getindexrequest()->mutable_indexes(0)->set_index(0);

  Message reply = Handle(request);

  const auto& body = reply.getindexresponse();
  ASSERT_EQ(body.errors_size(), 0) << body.errors(0);
  ASSERT_EQ(body.records_size(), 1);
  EXPECT_EQ(body.records(0).offset(), 0u);
  EXPECT_EQ(body.records(0).count(), 1u);
  EXPECT_EQ(body.records(0).timestamps_size(), 1);
  EXPECT_EQ(body.records(0).partition(), key);
  EXPECT_LE(reply.ByteSizeLong(), 4096u);
}

TEST_F(RequestHandlerTest, ARangeIsCutToExactlyTheRecordsThatFit) {
  const std::string key(100, 'k');
  broker_.query_answer = Answer(RowsOf(key, 50), 0);
  Message request = GetIndex(Index::RANGE, "amount", key);
  request.mutable_getindexrequest()->mutable_indexes(0)->set_index(0);
  // The reply of all 50 records, then a limit one byte below it: 49 records.
  const size_t whole = Handle(request).ByteSizeLong();
  max_reply_bytes_ = whole;
  EXPECT_EQ(Handle(request).getindexresponse().records(0).count(), 50u);
  max_reply_bytes_ = whole - 1;
  Message reply = Handle(request);
  ASSERT_EQ(reply.getindexresponse().records_size(), 1);
  EXPECT_EQ(reply.getindexresponse().records(0).count(), 49u);
  EXPECT_LE(reply.ByteSizeLong(), whole - 1);
}

// One record that cannot fit in a frame: RESOURCE_EXHAUSTED in the GetIndexResponse (not an
// ERROR message), and the error quotes 64 bytes of the 4096-byte key.
TEST_F(RequestHandlerTest, APointQueryOfARecordTooLargeForAFrameIsResourceExhausted) {
  max_reply_bytes_ = 4096;
  const std::string key(4096, 'k');
  broker_.query_answer = Answer(RowsOf(key, 1), 7);
  Message request = GetIndex(Index::OFFSET, "amount", key);
  request.mutable_getindexrequest()->mutable_indexes(0)->set_index(7);

  Message reply = Handle(request);

  ASSERT_EQ(reply.type(), Message::GETINDEXRESPONSE);
  const auto& body = reply.getindexresponse();
  EXPECT_EQ(body.code(), higgins::wire::RESOURCE_EXHAUSTED);
  EXPECT_EQ(body.records_size(), 0);
  ASSERT_EQ(body.errors_size(), 1);
  EXPECT_EQ(body.errors(0), "index 0: stream 'amount': the record at offset 7 of partition '" +
                                std::string(64, 'k') +
                                "'…(4096 bytes) needs a reply of 8658 bytes, more than the "
                                "frame limit of 4096 bytes");
  EXPECT_LE(reply.ByteSizeLong(), 4096u);
}

TEST_F(RequestHandlerTest, RecordsThatFitAloneButNotTogetherAskForFewerIndexes) {
  max_reply_bytes_ = 4096;
  const std::string key(1500, 'k');
  broker_.query_answer = Answer(RowsOf(key, 1), 0);
  Message request = GetIndex(Index::OFFSET, "amount", key);
  request.mutable_getindexrequest()->mutable_indexes(0)->set_index(0);
  *request.mutable_getindexrequest()->add_indexes() = request.getindexrequest().indexes(0);

  Message reply = Handle(request);

  const auto& body = reply.getindexresponse();
  EXPECT_EQ(body.code(), higgins::wire::RESOURCE_EXHAUSTED);
  EXPECT_EQ(body.records_size(), 0);
  ASSERT_EQ(body.errors_size(), 1);
  EXPECT_EQ(body.errors(0), "index 1: stream 'amount': the record at offset 0 of partition '" +
                                std::string(64, 'k') +
                                "'…(1500 bytes) does not fit in the reply after the records of "
                                "the indexes before it (frame limit 4096 bytes); ask for fewer "
                                "indexes at a time");
}

// Errors of many indexes are listed as far as the frame holds, then counted.
TEST_F(RequestHandlerTest, ErrorsOfManyIndexesStayWithinTheFrameLimit) {
  max_reply_bytes_ = 1024;
  broker_.query_answer = Status::NotFound("stream 'nope' does not exist");
  Message request;
  request.set_type(Message::GETINDEXREQUEST);
  for (int i = 0; i < 100; ++i) {
    Index* index = request.mutable_getindexrequest()->add_indexes();
    index->set_type(Index::LATEST);
    index->set_stream("nope");
    index->set_partition("k");
  }

  Message reply = Handle(request);

  const auto& body = reply.getindexresponse();
  EXPECT_EQ(body.code(), higgins::wire::NOT_FOUND);
  EXPECT_LE(reply.ByteSizeLong(), 1024u);
  ASSERT_EQ(body.errors_size(), 24);
  EXPECT_EQ(body.errors(0), "index 0: stream 'nope' does not exist");
  EXPECT_EQ(body.errors(22), "index 22: stream 'nope' does not exist");
  EXPECT_EQ(body.errors(23),
            "... and 77 more error line(s), left out to keep the reply within the frame limit");
}

// An acknowledgement refused for many ranges lists the error lines and failed ranges that fit,
// then says how many of each were left out.
TEST_F(RequestHandlerTest, AnAcknowledgementFailingForManyRangesStaysWithinTheFrameLimit) {
  max_reply_bytes_ = 1024;
  std::string errors;
  for (uint64_t i = 0; i < 100; ++i) {
    const std::string key = "k" + std::to_string(i);
    broker_.acknowledge_failed.push_back({key, i, i + 1});
    errors += "partition '" + key + "' offsets " + std::to_string(i) + " to " + std::to_string(i) +
              ": nothing of this partition was pushed\n";
  }
  errors.pop_back();
  broker_.acknowledge_status = Status::InvalidArgument(errors);
  Message request;
  request.set_type(Message::ACKNOWLEDGEREQUEST);
  auto* body = request.mutable_acknowledgerequest();
  body->set_subscription_id(std::string(16, 's'));
  for (uint64_t i = 0; i < 100; ++i) {
    auto* offset = body->add_offsets();
    offset->set_key("k" + std::to_string(i));
    offset->mutable_range()->set_start(i);
    offset->mutable_range()->set_end(i);
  }

  Message reply = Handle(request);

  EXPECT_LE(reply.ByteSizeLong(), 1024u);
  const auto& response = reply.acknowledgeresponse();
  EXPECT_EQ(response.code(), higgins::wire::INVALID_ARGUMENT);
  const std::string& error = response.error();
  const size_t lines = static_cast<size_t>(std::count(error.begin(), error.end(), '\n'));
  const size_t ranges = static_cast<size_t>(response.failed_offsets_size());
  ASSERT_GT(lines, 0u);
  ASSERT_GT(ranges, 0u);
  EXPECT_EQ(error.substr(0, error.find('\n')),
            "partition 'k0' offsets 0 to 0: nothing of this partition was pushed");
  EXPECT_EQ(error.substr(error.rfind('\n') + 1),
            "... " + std::to_string(100 - lines) + " more error line(s) and " +
                std::to_string(100 - ranges) +
                " more failed range(s), left out to keep the reply within the frame limit");
  EXPECT_EQ(response.failed_offsets(0).key(), protocol::EncodePartitionName("k0"));
  EXPECT_EQ(response.failed_offsets(static_cast<int>(ranges) - 1).range().start(), ranges - 1);
}

TEST_F(RequestHandlerTest, ASubscriptionStartIsPassedAsItsTypedKind) {
  broker_.subscription_id = SubscriptionId(std::string(16, 'i'));
  Message request;
  request.set_type(Message::CREATESUBSCRIPTIONREQUEST);
  request.mutable_createsubscriptionrequest()->set_stream_name("amount");
  request.mutable_createsubscriptionrequest()->set_offset_type(higgins::wire::FROM_OFFSET);
  request.mutable_createsubscriptionrequest()->set_offset(12);

  Message reply = Handle(request);

  ASSERT_EQ(broker_.subscriptions_created.size(), 1u);
  EXPECT_EQ(broker_.subscriptions_created[0].first, "amount");
  EXPECT_EQ(broker_.subscriptions_created[0].second.kind,
            subscription::SubscriptionStartKind::kOffset);
  EXPECT_EQ(broker_.subscriptions_created[0].second.value, 12u);
  EXPECT_EQ(reply.createsubscriptionresponse().subscription_id(), std::string(16, 'i'));
}

TEST_F(RequestHandlerTest, AClosedConnectionStopsBeingAConsumer) {
  {
    RequestHandler handler(&broker_, 1u << 20);
    handler.ConnectionClosed(77);
  }
  ASSERT_EQ(broker_.removed_consumers.size(), 1u);
  EXPECT_EQ(broker_.removed_consumers[0], ConsumerId(77));
}

}  // namespace
}  // namespace higgins::server
