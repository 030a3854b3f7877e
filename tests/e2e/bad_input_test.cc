// The bad-input table: each malformed request gets a clear error reply, and the broker keeps
// serving other clients.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "higgins/arrow/ipc/writer.h"
#include "broker_process.h"
#include "amount_configs.h"
#include "wire_client.h"

namespace higgins::test {
namespace {

std::string Frame(std::string_view body) {
  std::string out;
  const uint32_t n = static_cast<uint32_t>(body.size());
  out.push_back(static_cast<char>(n >> 24));
  out.push_back(static_cast<char>(n >> 16));
  out.push_back(static_cast<char>(n >> 8));
  out.push_back(static_cast<char>(n));
  out.append(body);
  return out;
}

std::string IpcPayload(const arrow::SchemaPtr& schema, std::vector<arrow::Array> columns,
                       int64_t rows) {
  auto batch = arrow::RecordBatch::Make(schema, rows, std::move(columns));
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  auto bytes = arrow::ipc::WriteStream(schema, {*batch});
  EXPECT_TRUE(bytes.ok());
  return std::string(reinterpret_cast<const char*>(bytes->data()), bytes->size());
}

class BadInputTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir();
    broker_ = new BrokerProcess(tmp_->path() + "/data", {"--max-frame-bytes=1048576"});
    broker_->Start();
    WireClient client(broker_->port());
    ASSERT_EQ(ReplyErrors(client.CreateConfiguration(kQuickStart)), "");
  }
  static void TearDownTestSuite() {
    // The broker survived every case.
    EXPECT_EQ(broker_->Terminate(), 0) << broker_->Log();
    delete broker_;
    delete tmp_;
  }
  void TearDown() override {
    // Another client is still served after each case.
    WireClient other(broker_->port());
    EXPECT_TRUE(other.Ping()) << "the broker stopped serving after this case";
  }

  /// Sends raw bytes and returns the single reply.
  static higgins::wire::Message RawReply(std::string_view bytes, bool shutdown_write = false) {
    WireClient client(broker_->port());
    client.SendRaw(bytes);
    if (shutdown_write) client.ShutdownWrite();
    auto reply = client.Receive();
    EXPECT_TRUE(reply.has_value()) << "no reply";
    return reply.value_or(higgins::wire::Message());
  }

  static TempDir* tmp_;
  static BrokerProcess* broker_;
};
TempDir* BadInputTest::tmp_ = nullptr;
BrokerProcess* BadInputTest::broker_ = nullptr;

TEST_F(BadInputTest, TruncatedFrame) {
  std::string frame = Frame(std::string(100, 'x'));
  auto reply = RawReply(frame.substr(0, 50), /*shutdown_write=*/true);
  EXPECT_EQ(reply.type(), higgins::wire::Message::ERROR);
  EXPECT_EQ(reply.error().type(), higgins::wire::Error::TRUNCATED_FRAME);
  EXPECT_NE(reply.error().message().find("truncated frame"), std::string::npos)
      << reply.error().message();
}

TEST_F(BadInputTest, OversizedFrameIsRefusedAndTheConnectionClosed) {
  WireClient client(broker_->port());
  client.SendRaw(std::string("\x7f\xff\xff\xff", 4));
  auto reply = client.Receive();
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ(reply->type(), higgins::wire::Message::ERROR);
  EXPECT_EQ(reply->error().type(), higgins::wire::Error::FRAME_TOO_LARGE);
  EXPECT_NE(reply->error().message().find("exceeds the limit of 1048576 bytes"), std::string::npos)
      << reply->error().message();
  EXPECT_TRUE(client.ClosedByPeer());
}

TEST_F(BadInputTest, ARangeOfRecordsLargerThanTheFrameLimitComesInSeveralReplies) {
  // 40 records of 100 KB: 4 MB for a 1 MiB frame limit. Each reply stops before the limit and
  // says how many records it holds; asking on from there gets every record, in order.
  WireClient client(broker_->port());
  ASSERT_EQ(ReplyErrors(client.CreateConfiguration(
                "[schema.wide]\nid = \"string\"\npayload = \"string\"\n"
                "[streams.wide]\nschema = \"wide\"\npartition_key = \"id\"\n")),
            "");
  auto payload_of = [](int i) { return std::string(100'000, static_cast<char>('a' + i % 26)); };
  for (int request = 0; request < 5; ++request) {
    std::string ndjson;
    for (int i = request * 8; i < request * 8 + 8; ++i) {
      ndjson += R"({"id":"w","payload":")" + payload_of(i) + "\"}\n";
    }
    ASSERT_EQ(ReplyErrors(client.Produce("wide", ndjson)), "");
  }
  uint64_t next = 0;
  int replies = 0;
  while (next < 40) {
    higgins::wire::Index range;
    range.set_type(higgins::wire::Index::RANGE);
    range.set_stream("wide");
    range.set_partition("w");
    range.set_index(next);
    range.set_end(40);
    auto reply = client.Query(range);
    ASSERT_EQ(ReplyErrors(reply), "");
    const auto& record = reply.getindexresponse().records(0);
    ASSERT_EQ(record.offset(), next);
    ASSERT_GE(record.count(), 1u);
    EXPECT_LE(record.count(), 10u);  // about 1 MiB of 100 KB records
    arrow::RecordBatch batch = DecodeRecord(record);
    ASSERT_EQ(static_cast<uint64_t>(batch.num_rows()), record.count());
    ASSERT_EQ(static_cast<uint64_t>(record.timestamps_size()), record.count());
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      EXPECT_EQ(batch.column(1).BinaryValue(r), payload_of(static_cast<int>(next) + r));
    }
    next += record.count();
    ++replies;
  }
  EXPECT_GE(replies, 4);
}

TEST_F(BadInputTest, GarbageProtobuf) {
  auto reply = RawReply(Frame("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"));
  EXPECT_EQ(reply.type(), higgins::wire::Message::ERROR);
  EXPECT_EQ(reply.error().type(), higgins::wire::Error::MALFORMED_MESSAGE);
  EXPECT_NE(reply.error().message().find("malformed message"), std::string::npos)
      << reply.error().message();
}

TEST_F(BadInputTest, UnknownOperation) {
  WireClient client(broker_->port());
  higgins::wire::Message m;
  m.set_type(static_cast<higgins::wire::Message::Type>(99));
  auto reply = client.Call(m);
  EXPECT_EQ(reply.type(), higgins::wire::Message::ERROR);
  EXPECT_EQ(reply.error().type(), higgins::wire::Error::UNIMPLEMENTED);
  EXPECT_EQ(reply.error().message(), "unknown operation 99");
}

TEST_F(BadInputTest, ReplyTypeSentAsRequest) {
  WireClient client(broker_->port());
  higgins::wire::Message m;
  m.set_type(higgins::wire::Message::PONG);
  m.mutable_pong();
  auto reply = client.Call(m);
  EXPECT_EQ(reply.error().type(), higgins::wire::Error::UNIMPLEMENTED);
  EXPECT_EQ(reply.error().message(), "PONG is a reply, not a request");
}

TEST_F(BadInputTest, RequestWithoutItsBody) {
  WireClient client(broker_->port());
  higgins::wire::Message m;
  m.set_type(higgins::wire::Message::PRODUCEREQUEST);
  auto reply = client.Call(m);
  EXPECT_EQ(reply.error().type(), higgins::wire::Error::MALFORMED_MESSAGE);
  EXPECT_EQ(reply.error().message(), "PRODUCEREQUEST carries no request body");
}

TEST_F(BadInputTest, BadToml) {
  WireClient client(broker_->port());
  auto reply = client.CreateConfiguration("[storage.memory\ntype = ");
  EXPECT_EQ(reply.createconfigurationresponse().code(), higgins::wire::INVALID_ARGUMENT);
  EXPECT_NE(ReplyErrors(reply).find("TOML syntax error at line 1"), std::string::npos)
      << ReplyErrors(reply);
}

TEST_F(BadInputTest, UnknownTypeTag) {
  WireClient client(broker_->port());
  auto reply = client.CreateConfiguration("[schema.bad]\nid = \"strang\"\n");
  EXPECT_EQ(reply.createconfigurationresponse().code(), higgins::wire::INVALID_ARGUMENT);
  EXPECT_NE(ReplyErrors(reply).find("schema 'bad', field 'id'"), std::string::npos)
      << ReplyErrors(reply);
  EXPECT_NE(ReplyErrors(reply).find("strang"), std::string::npos) << ReplyErrors(reply);
}

TEST_F(BadInputTest, JsonOfTheWrongType) {
  WireClient client(broker_->port());
  auto reply = client.Produce("amount", R"({"id":"k","data":"twenty"})");
  EXPECT_EQ(reply.produceresponse().code(), higgins::wire::INVALID_ARGUMENT);
  EXPECT_NE(ReplyErrors(reply).find("produce to stream 'amount': row 0, field 'data'"),
            std::string::npos)
      << ReplyErrors(reply);
}

TEST_F(BadInputTest, MissingPartitionKey) {
  WireClient client(broker_->port());
  auto reply = client.Produce("amount", "{\"id\":\"k\",\"data\":1}\n{\"data\":2}\n");
  EXPECT_EQ(reply.produceresponse().code(), higgins::wire::INVALID_ARGUMENT);
  EXPECT_EQ(ReplyErrors(reply),
            "produce to stream 'amount': row 1, field 'id': the partition key is null");
  // Validated as a whole: the good first row was not committed either.
  auto latest = client.QueryLatest("amount", "k");
  EXPECT_EQ(latest.getindexresponse().code(), higgins::wire::NOT_FOUND);
}

TEST_F(BadInputTest, UnknownStream) {
  WireClient client(broker_->port());
  auto reply = client.Produce("nope", R"({"id":"k","data":1})");
  EXPECT_EQ(reply.produceresponse().code(), higgins::wire::NOT_FOUND);
  EXPECT_EQ(ReplyErrors(reply), "stream 'nope' does not exist (declared streams: amount)");
}

TEST_F(BadInputTest, IpcPayloadWithAnotherSchema) {
  WireClient client(broker_->port());
  auto schema = arrow::MakeSchema(
      {arrow::Field("id", arrow::DataType::Utf8()), arrow::Field("data", arrow::DataType::Int64())});
  arrow::ArrayBuilder ids(arrow::DataType::Utf8());
  ASSERT_TRUE(ids.AppendBinary("k").ok());
  arrow::ArrayBuilder data(arrow::DataType::Int64());
  data.AppendPrimitive<int64_t>(1);
  auto reply = client.Produce("amount", IpcPayload(schema, {ids.Finish(), data.Finish()}, 1));
  EXPECT_EQ(reply.produceresponse().code(), higgins::wire::INVALID_ARGUMENT);
  EXPECT_EQ(ReplyErrors(reply),
            "produce to stream 'amount': the payload's schema differs from the stream's: "
            "field 'data' is int64, the stream has int32");
}

TEST_F(BadInputTest, CorruptIpcPayload) {
  WireClient client(broker_->port());
  auto reply = client.Produce("amount", std::string("\xff\xff\xff\xff\x10\0\0\0garbage", 15),
                              higgins::wire::ARROW_IPC);
  EXPECT_EQ(reply.produceresponse().code(), higgins::wire::CORRUPTION) << ReplyErrors(reply);
  EXPECT_NE(ReplyErrors(reply).find("produce to stream 'amount'"), std::string::npos);
}

TEST_F(BadInputTest, EmptyPayload) {
  WireClient client(broker_->port());
  auto reply = client.Produce("amount", "");
  EXPECT_EQ(ReplyErrors(reply), "produce to stream 'amount': empty payload");
}

TEST_F(BadInputTest, QueryWithoutOffset) {
  WireClient client(broker_->port());
  higgins::wire::Index index;
  index.set_type(higgins::wire::Index::OFFSET);
  index.set_stream("amount");
  index.set_partition("k");
  auto reply = client.Query(index);
  EXPECT_EQ(ReplyErrors(reply), "index 0: stream 'amount': an OFFSET index needs `index`");
}

}  // namespace
}  // namespace higgins::test
