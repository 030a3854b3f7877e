// The Kafka listener against bad input and at its edges, on a real broker (docs/kafka.md,
// "Errors"): garbage, truncated and oversized frames, a wrong CRC, message sets v0/v1, unknown
// APIs and versions, unknown topics, read-only streams, offsets out of range. Each case gets the
// documented error or a closed connection, and the broker keeps serving other connections.
// Requests are built with the codec (src/kafka), and answers decoded with it; real clients are
// in tests/kafka.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <thread>

#include "broker_process.h"
#include "kafka/api_versions.h"
#include "kafka/create_topics.h"
#include "kafka/describe_configs.h"
#include "kafka/fetch.h"
#include "kafka/init_producer_id.h"
#include "kafka/produce.h"
#include "kafka/record_batch.h"
#include "kafka/request_header.h"
#include "wire_client.h"

namespace higgins::test {
namespace {

using namespace higgins::kafka;  // NOLINT(google-build-using-namespace)

uint16_t FreePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
  socklen_t length = sizeof(address);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

/// A blocking Kafka connection: frames out, frames in.
class KafkaConnection {
 public:
  explicit KafkaConnection(uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
      ADD_FAILURE() << "cannot connect to the Kafka port " << port;
    }
  }
  ~KafkaConnection() { ::close(fd_); }

  void SendRaw(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return;
      bytes.remove_prefix(static_cast<size_t>(n));
    }
  }
  /// Sends a request: header (v1, or v2 when flexible) and `body`, framed.
  void Send(ApiKey key, int16_t version, int32_t correlation_id, std::string_view body) {
    std::string frame;
    Writer writer(&frame);
    const size_t size = writer.ReserveInt32();
    EncodeRequestHeader({key, version, correlation_id, "kafka_protocol_test"}, writer);
    frame.append(body);
    writer.FillSizeSince(size);
    SendRaw(frame);
  }
  /// The next response frame's body (after the size), or nullopt when the broker closed the
  /// connection or said nothing within 10 s.
  std::optional<std::string> Receive() {
    std::string size_bytes = ReadExactly(4);
    if (size_bytes.size() != 4) return std::nullopt;
    uint32_t size = 0;
    std::memcpy(&size, size_bytes.data(), 4);
    std::string body = ReadExactly(ntohl(size));
    if (body.size() != ntohl(size)) return std::nullopt;
    return body;
  }
  /// True when the broker closed the connection within 5 s.
  bool ClosedByPeer() {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 5000) <= 0) return false;
    char c = 0;
    return ::recv(fd_, &c, 1, 0) <= 0;
  }

 private:
  std::string ReadExactly(size_t n) {
    std::string out;
    while (out.size() < n) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 10'000) <= 0) break;
      char buffer[65536];
      const ssize_t got = ::recv(fd_, buffer, std::min(sizeof(buffer), n - out.size()), 0);
      if (got <= 0) break;
      out.append(buffer, static_cast<size_t>(got));
    }
    return out;
  }
  int fd_ = -1;
};

/// A Produce v3 request body of one batch of JSON values to `topic`'s partition 0.
std::string ProduceBody(std::string_view topic, const std::string& batch) {
  ProduceRequest request;
  request.acks = -1;
  request.timeout_ms = 5000;
  request.topics.push_back({topic, {{0, batch}}});
  std::string body;
  Writer writer(&body);
  EncodeProduceRequest(request, 3, writer);
  return body;
}

std::string JsonBatch(const std::vector<std::string>& values) {
  std::vector<RecordToWrite> records;
  for (const std::string& v : values) records.push_back({1000, std::nullopt, v, {}});
  BatchToWrite batch;
  batch.records = records;
  return *EncodeRecordBatch(batch);
}

/// One batch of an idempotent producer: `values` from sequence `base_sequence` on.
std::string IdempotentBatch(const std::vector<std::string>& values, int64_t producer_id,
                            int16_t epoch, int32_t base_sequence) {
  std::vector<RecordToWrite> records;
  for (const std::string& v : values) records.push_back({1000, std::nullopt, v, {}});
  BatchToWrite batch;
  batch.records = records;
  batch.producer_id = producer_id;
  batch.producer_epoch = epoch;
  batch.base_sequence = base_sequence;
  return *EncodeRecordBatch(batch);
}

/// The first partition of a Produce v3 response body (after its header).
ProducePartitionResponse ProducePartition(const std::string& response) {
  Reader reader(response);
  reader.Int32();  // correlation id
  auto decoded = DecodeProduceResponse(reader, 3);
  if (!decoded.ok() || decoded->topics.empty() || decoded->topics[0].partitions.empty()) {
    ADD_FAILURE() << "undecodable Produce response";
    return {.error_code = ErrorCode::kUnknownServerError};
  }
  return decoded->topics[0].partitions[0];
}

ErrorCode ProduceError(const std::string& response) {
  return ProducePartition(response).error_code;
}

class KafkaProtocolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    kafka_port_ = FreePort();
    broker_.emplace(tmp_.path() + "/data",
                    std::vector<std::string>{"--kafka-port=" + std::to_string(kafka_port_),
                                             "--max-frame-bytes=1048576"});
    broker_->Start();
    WireClient client(broker_->port());
    auto reply = client.CreateConfiguration(
        "[storage.memory]\ntype = \"memory\"\n[schema.e]\nid = \"string\"\nn = \"int64\"\n"
        "[streams.events]\nschema = \"e\"\npartition_key = \"id\"\n");
    ASSERT_EQ(ReplyErrors(reply), "");
  }

  /// An ApiVersions v0 round trip on a new connection: the broker still serves.
  bool Serves() {
    KafkaConnection other(kafka_port_);
    other.Send(ApiKey::kApiVersions, 0, 77, "");
    auto response = other.Receive();
    if (!response) return false;
    Reader reader(*response);
    if (reader.Int32() != 77) return false;
    auto decoded = DecodeApiVersionsResponse(reader, 0);
    return decoded.ok() && decoded->error_code == ErrorCode::kNone;
  }

  TempDir tmp_;
  uint16_t kafka_port_ = 0;
  std::optional<BrokerProcess> broker_;
};

TEST_F(KafkaProtocolTest, ProduceThenFetchOverTheWire) {
  KafkaConnection connection(kafka_port_);
  connection.Send(ApiKey::kProduce, 3, 1,
                  ProduceBody("events", JsonBatch({R"({"id":"a","n":1})", R"({"id":"a","n":2})"})));
  auto produced = connection.Receive();
  ASSERT_TRUE(produced);
  EXPECT_EQ(ProduceError(*produced), ErrorCode::kNone);

  FetchRequest fetch;
  fetch.max_wait_ms = 100;
  fetch.min_bytes = 1;
  fetch.topics.push_back({"events", {{0, -1, 1, -1, 1 << 20}}});
  std::string body;
  Writer writer(&body);
  EncodeFetchRequest(fetch, 4, writer);
  connection.Send(ApiKey::kFetch, 4, 2, body);
  auto fetched = connection.Receive();
  ASSERT_TRUE(fetched);
  Reader reader(*fetched);
  EXPECT_EQ(reader.Int32(), 2);
  auto response = DecodeFetchResponse(reader, 4);
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  const FetchPartitionResponse& partition = response->responses.at(0).partitions.at(0);
  EXPECT_EQ(partition.error_code, ErrorCode::kNone);
  EXPECT_EQ(partition.high_watermark, 2);
  auto batches = DecodeRecordBatches(partition.records);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ASSERT_EQ(batches->size(), 1u);
  const RecordBatch& batch = (*batches)[0];
  EXPECT_EQ(batch.base_offset, 1);  // from the fetch offset on
  ASSERT_EQ(batch.records.size(), 1u);
  EXPECT_EQ(batch.records[0].key, "a");
  EXPECT_EQ(batch.records[0].value, R"({"id":"a","n":2})");
  ASSERT_EQ(batch.records[0].headers.size(), 1u);
  EXPECT_EQ(batch.records[0].headers[0].key, "higgins.offset");
  EXPECT_EQ(batch.records[0].headers[0].value, "1");
}

TEST_F(KafkaProtocolTest, WrongCrcIsCorruptMessageAndNothingIsStored) {
  std::string batch = JsonBatch({R"({"id":"a","n":1})"});
  batch.back() ^= 0x01;  // a byte of the last record, under the CRC
  KafkaConnection connection(kafka_port_);
  connection.Send(ApiKey::kProduce, 3, 1, ProduceBody("events", batch));
  auto response = connection.Receive();
  ASSERT_TRUE(response);
  EXPECT_EQ(ProduceError(*response), ErrorCode::kCorruptMessage);
  WireClient client(broker_->port());
  EXPECT_NE(ReplyErrors(client.QueryLatest("events", "a")), "");  // nothing stored
  EXPECT_TRUE(Serves());
}

TEST_F(KafkaProtocolTest, RecordsThatDoNotFitTheSchemaAreInvalidRecordAndNoneIsStored) {
  KafkaConnection connection(kafka_port_);
  for (const std::string& bad : {std::string(R"({"id":"a","n":"one"})"), std::string("not json"),
                                 std::string(R"({"id":"a","n":1}{"id":"a","n":2})")}) {
    connection.Send(ApiKey::kProduce, 3, 1,
                    ProduceBody("events", JsonBatch({R"({"id":"a","n":1})", bad})));
    auto response = connection.Receive();
    ASSERT_TRUE(response) << bad;
    EXPECT_EQ(ProduceError(*response), ErrorCode::kInvalidRecord) << bad;
  }
  WireClient client(broker_->port());
  EXPECT_NE(ReplyErrors(client.QueryLatest("events", "a")), "");  // nothing stored
}

TEST_F(KafkaProtocolTest, UnknownTopicAndMessageSetsAreRefusedByCode) {
  KafkaConnection connection(kafka_port_);
  connection.Send(ApiKey::kProduce, 3, 1, ProduceBody("nope", JsonBatch({R"({"id":"a"})"})));
  auto unknown = connection.Receive();
  ASSERT_TRUE(unknown);
  EXPECT_EQ(ProduceError(*unknown), ErrorCode::kUnknownTopicOrPartition);
  // A message set v1: offset, size, CRC, magic 1, ...
  std::string legacy = JsonBatch({R"({"id":"a","n":1})"});
  legacy[16] = 1;  // the magic byte
  connection.Send(ApiKey::kProduce, 3, 2, ProduceBody("events", legacy));
  auto old_format = connection.Receive();
  ASSERT_TRUE(old_format);
  EXPECT_EQ(ProduceError(*old_format), ErrorCode::kUnsupportedForMessageFormat);
}

TEST_F(KafkaProtocolTest, UnknownApiGetsUnsupportedVersionAndTheConnectionStaysUsable) {
  KafkaConnection connection(kafka_port_);
  connection.Send(static_cast<ApiKey>(1000), 0, 5, "");
  auto response = connection.Receive();
  ASSERT_TRUE(response);
  Reader reader(*response);
  EXPECT_EQ(reader.Int32(), 5);
  EXPECT_EQ(reader.Int16(), static_cast<int16_t>(ErrorCode::kUnsupportedVersion));
  // A newer ApiVersions: a v0 body with error 35 and the supported ranges (KIP-511).
  connection.Send(ApiKey::kApiVersions, 99, 6, "");
  auto versions = connection.Receive();
  ASSERT_TRUE(versions);
  Reader v0(*versions);
  EXPECT_EQ(v0.Int32(), 6);
  auto decoded = DecodeApiVersionsResponse(v0, 0);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->error_code, ErrorCode::kUnsupportedVersion);
  EXPECT_FALSE(decoded->api_keys.empty());
}

TEST_F(KafkaProtocolTest, GarbageTruncatedAndOversizedFramesCloseOnlyTheirConnection) {
  {
    KafkaConnection garbage(kafka_port_);
    garbage.SendRaw(std::string("\x00\x00\x00\x03\xff\xff\xff", 7));  // a header cut short
    EXPECT_TRUE(garbage.ClosedByPeer());
  }
  {
    KafkaConnection oversized(kafka_port_);
    oversized.SendRaw(std::string("\x7f\xff\xff\xff", 4));  // 2 GiB, over --max-frame-bytes
    EXPECT_TRUE(oversized.ClosedByPeer());
  }
  {
    KafkaConnection truncated(kafka_port_);
    truncated.SendRaw(std::string("\x00\x00\x01\x00\x00\x12", 6));  // 256 bytes promised, 2 sent
  }                                                                 // and closed
  EXPECT_TRUE(Serves());
}

TEST_F(KafkaProtocolTest, FetchPastTheEndIsOffsetOutOfRange) {
  KafkaConnection connection(kafka_port_);
  FetchRequest fetch;
  fetch.topics.push_back({"events", {{0, -1, 5, -1, 1 << 20}}});
  std::string body;
  Writer writer(&body);
  EncodeFetchRequest(fetch, 4, writer);
  connection.Send(ApiKey::kFetch, 4, 9, body);
  auto fetched = connection.Receive();
  ASSERT_TRUE(fetched);
  Reader reader(*fetched);
  reader.Int32();
  auto response = DecodeFetchResponse(reader, 4);
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response->responses.at(0).partitions.at(0).error_code, ErrorCode::kOffsetOutOfRange);
  EXPECT_EQ(response->responses.at(0).partitions.at(0).high_watermark, 0);
}

/// A Fetch v4 request body for partition 0 of `topic` from `offset`.
std::string FetchBody(std::string_view topic, int64_t offset, int32_t max_wait_ms) {
  FetchRequest fetch;
  fetch.max_wait_ms = max_wait_ms;
  fetch.min_bytes = 1;
  fetch.topics.push_back({topic, {{0, -1, offset, -1, 1 << 20}}});
  std::string body;
  Writer writer(&body);
  EncodeFetchRequest(fetch, 4, writer);
  return body;
}

// docs/kafka.md, "Fetch": a fetch with nothing to answer waits for the next commit to its
// streams (not for a polling interval), and an idle one answers empty at max_wait_ms.
TEST_F(KafkaProtocolTest, AWaitingFetchIsAnsweredByTheNextCommitAndAnIdleOneAtItsDeadline) {
  using Clock = std::chrono::steady_clock;
  auto ms_since = [](Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
  };
  KafkaConnection consumer(kafka_port_);
  consumer.Send(ApiKey::kFetch, 4, 21, FetchBody("events", 0, 8000));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the fetch is waiting
  KafkaConnection producer(kafka_port_);
  const Clock::time_point produced_at = Clock::now();
  producer.Send(ApiKey::kProduce, 3, 22, ProduceBody("events", JsonBatch({R"({"id":"w","n":1})"})));
  auto produced = producer.Receive();
  ASSERT_TRUE(produced);
  EXPECT_EQ(ProduceError(*produced), ErrorCode::kNone);
  auto fetched = consumer.Receive();
  ASSERT_TRUE(fetched);
  EXPECT_LT(ms_since(produced_at), 4000) << "answered at the deadline, not by the commit";
  Reader reader(*fetched);
  EXPECT_EQ(reader.Int32(), 21);
  auto response = DecodeFetchResponse(reader, 4);
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  auto batches = DecodeRecordBatches(response->responses.at(0).partitions.at(0).records);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ASSERT_EQ(batches->size(), 1u);
  EXPECT_EQ((*batches)[0].records.at(0).value, R"({"id":"w","n":1})");

  const Clock::time_point idle_at = Clock::now();
  consumer.Send(ApiKey::kFetch, 4, 23, FetchBody("events", 1, 300));
  auto idle = consumer.Receive();
  ASSERT_TRUE(idle);
  EXPECT_GE(ms_since(idle_at), 280);
  Reader idle_reader(*idle);
  EXPECT_EQ(idle_reader.Int32(), 23);
  auto empty = DecodeFetchResponse(idle_reader, 4);
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  EXPECT_EQ(empty->responses.at(0).partitions.at(0).error_code, ErrorCode::kNone);
  EXPECT_TRUE(empty->responses.at(0).partitions.at(0).records.empty());
  EXPECT_TRUE(Serves());
}

/// Sends `body` as `key` v`version` and decodes the response with `decode`.
template <typename Decode>
auto RoundTrip(KafkaConnection& connection, ApiKey key, int16_t version, const std::string& body,
               Decode decode) {
  static int32_t correlation = 1000;
  connection.Send(key, version, ++correlation, body);
  const std::string response = connection.Receive().value_or("");
  EXPECT_FALSE(response.empty()) << ApiKeyName(key) << " got no response";
  Reader reader(response);
  EXPECT_EQ(reader.Int32(), correlation);
  auto decoded = decode(reader, version);
  EXPECT_TRUE(decoded.ok()) << decoded.status().ToString();
  return *decoded;
}

// docs/kafka.md, "Fetch": only a response's first batch may go over partition_max_bytes; a
// later one is made smaller to fit, or left for the next fetch.
TEST_F(KafkaProtocolTest, OnlyTheFirstBatchMayGoOverTheFetchLimit) {
  KafkaConnection connection(kafka_port_);
  for (int commit = 0; commit < 2; ++commit) {
    std::vector<std::string> values;
    for (int i = 0; i < 3; ++i) {
      values.push_back(R"({"id":"k)" + std::to_string(i) + R"(","n":)" +
                       std::to_string(commit * 3 + i) + "}");
    }
    connection.Send(ApiKey::kProduce, 3, 30 + commit, ProduceBody("events", JsonBatch(values)));
    auto produced = connection.Receive();
    ASSERT_TRUE(produced);
    ASSERT_EQ(ProduceError(*produced), ErrorCode::kNone);
  }
  // Records fetched with partition_max_bytes `limit`: (bytes, offsets).
  auto fetch = [&](int32_t limit) {
    FetchRequest request;
    request.max_wait_ms = 0;
    request.min_bytes = 1;
    request.topics.push_back({"events", {{0, -1, 0, -1, limit}}});
    std::string body;
    Writer writer(&body);
    EncodeFetchRequest(request, 4, writer);
    connection.Send(ApiKey::kFetch, 4, 40, body);
    const std::string raw = connection.Receive().value_or("");  // the records point into it
    Reader reader(raw);
    reader.Int32();  // correlation id
    auto response = DecodeFetchResponse(reader, 4);
    EXPECT_TRUE(response.ok()) << response.status().ToString();
    const std::string_view records = response->responses.at(0).partitions.at(0).records;
    std::vector<int64_t> offsets;
    auto batches = DecodeRecordBatches(records);
    EXPECT_TRUE(batches.ok()) << batches.status().ToString();
    for (const RecordBatch& batch : *batches) {
      for (const auto& record : batch.records)
        offsets.push_back(batch.base_offset + record.offset_delta);
    }
    return std::make_pair(records.size(), offsets);
  };
  const auto [first_bytes, first] = fetch(1);  // the first batch, whole, over the limit
  EXPECT_EQ(first, (std::vector<int64_t>{0, 1, 2}));
  const auto [all_bytes, all] = fetch(1 << 20);
  EXPECT_EQ(all, (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
  // Room for the first batch and a little: the second is cut to what fits.
  const auto limit = static_cast<int32_t>(first_bytes + (all_bytes - first_bytes) / 2);
  const auto [some_bytes, some] = fetch(limit);
  EXPECT_LE(some_bytes, static_cast<size_t>(limit));
  ASSERT_GE(some.size(), 3u);
  EXPECT_LT(some.size(), 6u);
  const auto [exact_bytes, exact] = fetch(static_cast<int32_t>(first_bytes + 10));
  EXPECT_EQ(exact, first);
  EXPECT_EQ(exact_bytes, first_bytes);
}

TEST_F(KafkaProtocolTest, IdempotentProducerSequences) {
  KafkaConnection connection(kafka_port_);
  std::string init;
  Writer init_writer(&init);
  EncodeInitProducerIdRequest({std::nullopt, 60000}, 1, init_writer);
  auto first =
      RoundTrip(connection, ApiKey::kInitProducerId, 1, init, DecodeInitProducerIdResponse);
  auto second =
      RoundTrip(connection, ApiKey::kInitProducerId, 1, init, DecodeInitProducerIdResponse);
  ASSERT_EQ(first.error_code, ErrorCode::kNone);
  EXPECT_EQ(first.producer_epoch, 0);
  EXPECT_NE(first.producer_id, second.producer_id);
  const int64_t id = first.producer_id;

  auto produce = [&](int16_t epoch, int32_t sequence, const std::vector<std::string>& values) {
    connection.Send(ApiKey::kProduce, 3, 1,
                    ProduceBody("events", IdempotentBatch(values, id, epoch, sequence)));
    auto response = connection.Receive();
    EXPECT_TRUE(response);
    return response ? ProducePartition(*response) : ProducePartitionResponse{};
  };
  // "a" lands in partition 0 of the single-partition stream.
  const std::string a1 = R"({"id":"a","n":1})", a2 = R"({"id":"a","n":2})";
  auto appended = produce(0, 0, {a1, a2});
  ASSERT_EQ(appended.error_code, ErrorCode::kNone);
  EXPECT_EQ(appended.base_offset, 0);
  auto retried = produce(0, 0, {a1, a2});  // the same batch again: not appended twice
  EXPECT_EQ(retried.error_code, ErrorCode::kNone);
  EXPECT_EQ(retried.base_offset, 0);
  EXPECT_EQ(produce(0, 5, {a1}).error_code, ErrorCode::kOutOfOrderSequenceNumber);  // a gap
  EXPECT_EQ(produce(0, 1, {a1}).error_code, ErrorCode::kOutOfOrderSequenceNumber);  // overlap
  auto next = produce(0, 2, {a1});
  EXPECT_EQ(next.error_code, ErrorCode::kNone);
  EXPECT_EQ(next.base_offset, 2);
  // A producer id this process never gave out (an earlier one did, say), mid-sequence: its
  // state was lost.
  connection.Send(ApiKey::kProduce, 3, 1,
                  ProduceBody("events", IdempotentBatch({a1}, id + (int64_t{1} << 40), 0, 7)));
  auto lost = connection.Receive();
  ASSERT_TRUE(lost);
  EXPECT_EQ(ProduceError(*lost), ErrorCode::kUnknownProducerId);

  // Three records stored, not five.
  FetchRequest fetch;
  fetch.max_wait_ms = 0;
  fetch.topics.push_back({"events", {{0, -1, 0, -1, 1 << 20}}});
  std::string body;
  Writer writer(&body);
  EncodeFetchRequest(fetch, 4, writer);
  auto fetched = RoundTrip(connection, ApiKey::kFetch, 4, body, DecodeFetchResponse);
  ASSERT_EQ(fetched.responses.size(), 1u);
  EXPECT_EQ(fetched.responses[0].partitions.at(0).high_watermark, 3);

  // A transactional producer is refused.
  std::string transactional;
  Writer t_writer(&transactional);
  EncodeInitProducerIdRequest({"tx", 60000}, 1, t_writer);
  EXPECT_EQ(
      RoundTrip(connection, ApiKey::kInitProducerId, 1, transactional, DecodeInitProducerIdResponse)
          .error_code,
      ErrorCode::kTransactionalIdAuthorizationFailed);
}

TEST_F(KafkaProtocolTest, DescribeConfigsAndCreateTopics) {
  KafkaConnection connection(kafka_port_);
  DescribeConfigsRequest describe;
  describe.resources.push_back({kResourceTypeTopic, "events", std::nullopt});
  describe.resources.push_back(
      {kResourceTypeTopic, "events", std::vector<std::string_view>{"higgins.partition.key"}});
  describe.resources.push_back({kResourceTypeTopic, "nope", std::nullopt});
  describe.resources.push_back({kResourceTypeBroker, "0", std::nullopt});
  describe.resources.push_back({1, "x", std::nullopt});
  std::string body;
  Writer writer(&body);
  EncodeDescribeConfigsRequest(describe, 1, writer);
  auto described =
      RoundTrip(connection, ApiKey::kDescribeConfigs, 1, body, DecodeDescribeConfigsResponse);
  ASSERT_EQ(described.results.size(), 5u);
  auto value = [](const DescribeConfigsResult& result, std::string_view name) {
    for (const DescribeConfigsEntry& entry : result.configs) {
      if (entry.name == name) return entry.value.value_or("(null)");
    }
    return std::string("(absent)");
  };
  EXPECT_EQ(described.results[0].error_code, ErrorCode::kNone);
  EXPECT_EQ(value(described.results[0], "higgins.schema"), "e");
  EXPECT_EQ(value(described.results[0], "higgins.partitions"), "1");
  EXPECT_EQ(value(described.results[0], "cleanup.policy"), "delete");
  ASSERT_EQ(described.results[1].configs.size(), 1u);
  EXPECT_EQ(value(described.results[1], "higgins.partition.key"), "id");
  EXPECT_EQ(described.results[2].error_code, ErrorCode::kUnknownTopicOrPartition);
  EXPECT_EQ(value(described.results[3], "broker.id"), "0");
  EXPECT_EQ(value(described.results[3], "auto.create.topics.enable"), "false");
  EXPECT_EQ(described.results[4].error_code, ErrorCode::kInvalidRequest);

  CreateTopicsRequest create;
  create.topics.push_back({"events", 1, 1, {}, {}});
  create.topics.push_back({"fresh", 3, 1, {}, {}});
  body.clear();
  EncodeCreateTopicsRequest(create, 2, writer);
  auto created = RoundTrip(connection, ApiKey::kCreateTopics, 2, body, DecodeCreateTopicsResponse);
  ASSERT_EQ(created.topics.size(), 2u);
  EXPECT_EQ(created.topics[0].error_code, ErrorCode::kTopicAlreadyExists);
  EXPECT_EQ(created.topics[1].error_code, ErrorCode::kPolicyViolation);
  EXPECT_NE(created.topics[1].error_message.value_or("").find("create-configuration"),
            std::string::npos);
  EXPECT_TRUE(Serves());
}

}  // namespace
}  // namespace higgins::test
