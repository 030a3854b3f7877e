// End-to-end tests of the client library (include/higgins/client.h) against a real `higgins`
// broker, plus fake servers on loopback for what a healthy broker never does (stay silent,
// send an oversized frame, refuse to accept).
#include "higgins/client.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "amount_configs.h"
#include "broker_process.h"
#include "higgins/arrow/ipc/writer.h"

namespace higgins::test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// A loopback listening socket that never accepts by itself: connections complete in the
// kernel's backlog, requests are swallowed and never answered. Accept() hands one over.
class FakeServer {
 public:
  explicit FakeServer(int backlog = 16) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), len), 0);
    EXPECT_EQ(::listen(fd_, backlog), 0);
    EXPECT_EQ(::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len), 0);
    port_ = ntohs(addr.sin_port);
  }
  ~FakeServer() {
    for (int fd : others_) ::close(fd);
    ::close(fd_);
  }
  uint16_t port() const { return port_; }
  int Accept() {
    const int fd = ::accept(fd_, nullptr, nullptr);
    EXPECT_GE(fd, 0);
    others_.push_back(fd);
    return fd;
  }
  // Connects sockets that are never accepted until the accept queue is full: later SYNs are
  // dropped, so a connect hangs until its timeout.
  void FillBacklog() {
    for (int i = 0; i < 4; ++i) {
      const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
      sockaddr_in addr{};
      addr.sin_family = AF_INET;
      addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      addr.sin_port = htons(port_);
      ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
      others_.push_back(fd);
    }
    std::this_thread::sleep_for(50ms);
  }

 private:
  int fd_ = -1;
  uint16_t port_ = 0;
  std::vector<int> others_;
};

std::unique_ptr<Client> ConnectTo(uint16_t port, ClientOptions options = {}) {
  options.host = "127.0.0.1";
  options.port = port;
  auto client = Client::Connect(options);
  EXPECT_TRUE(client.ok()) << client.status().ToString();
  return client.ok() ? *std::move(client) : nullptr;
}

arrow::SchemaPtr AmountSchema() {
  return arrow::MakeSchema({arrow::Field("id", arrow::DataType::Utf8()),
                            arrow::Field("data", arrow::DataType::Int32())});
}

arrow::RecordBatch AmountBatch(const std::vector<std::pair<std::string, int32_t>>& rows,
                               arrow::SchemaPtr schema = AmountSchema()) {
  arrow::ArrayBuilder ids(arrow::DataType::Utf8());
  arrow::ArrayBuilder data(arrow::DataType::Int32());
  for (const auto& [id, value] : rows) {
    EXPECT_TRUE(ids.AppendBinary(id).ok());
    data.AppendPrimitive<int32_t>(value);
  }
  auto batch = arrow::RecordBatch::Make(std::move(schema), static_cast<int64_t>(rows.size()),
                                        {ids.Finish(), data.Finish()});
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

std::string Row(std::string_view id, int value) {
  return R"({"id":")" + std::string(id) + R"(","data":)" + std::to_string(value) + "}";
}

int32_t DataAt(const Records& records, int64_t row) {
  const auto column = records.batch.schema()->FieldIndex("data");
  if (!column || row >= records.num_rows()) {
    ADD_FAILURE() << "no data at row " << row;
    return INT32_MIN;
  }
  return records.batch.column(static_cast<int>(*column)).Value<int32_t>(row);
}

bool Contains(const Status& status, std::string_view text) {
  return status.message().find(text) != std::string::npos;
}

class ClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    broker_ = std::make_unique<BrokerProcess>(tmp_.path() + "/data");
    broker_->Start();
  }
  std::unique_ptr<Client> Connect(ClientOptions options = {}) {
    return ConnectTo(broker_->port(), std::move(options));
  }
  // A client with the quick-start stream `amount` (id: string, data: int32) configured.
  std::unique_ptr<Client> ConnectWithAmount() {
    auto client = Connect();
    if (client != nullptr) {
      Status s = client->UploadConfiguration(kQuickStart);
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
    return client;
  }

  TempDir tmp_;
  std::unique_ptr<BrokerProcess> broker_;
};

// --- Connecting ----------------------------------------------------------------------------------

TEST(ClientConnectTest, NothingListeningIsIOErrorNamingTheAddress) {
  uint16_t port = 0;
  {
    FakeServer closed_again;
    port = closed_again.port();
  }
  auto client = Client::Connect("127.0.0.1:" + std::to_string(port), 2000ms);
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), StatusCode::kIOError) << client.status().ToString();
  EXPECT_TRUE(Contains(client.status(), "127.0.0.1:" + std::to_string(port)))
      << client.status().ToString();
  EXPECT_TRUE(Contains(client.status(), "Connection refused")) << client.status().ToString();
}

TEST(ClientConnectTest, UnresolvableHostIsIOErrorNamingTheHost) {
  auto client = Client::Connect("no-such-host.invalid:4932", 2000ms);
  ASSERT_FALSE(client.ok());
  // Without a reachable DNS server the lookup may time out instead of failing.
  EXPECT_TRUE(client.status().code() == StatusCode::kIOError ||
              client.status().code() == StatusCode::kDeadlineExceeded)
      << client.status().ToString();
  EXPECT_TRUE(Contains(client.status(), "no-such-host.invalid")) << client.status().ToString();
}

TEST(ClientConnectTest, MalformedAddressIsInvalidArgument) {
  for (const char* bad : {"localhost", "localhost:http", "[::1:80", ":80"}) {
    auto client = Client::Connect(bad, 100ms);
    ASSERT_FALSE(client.ok()) << bad;
    EXPECT_EQ(client.status().code(), StatusCode::kInvalidArgument) << client.status().ToString();
  }
}

// A non-routable address would be the classic test, but sandboxes and proxies answer those at
// once; a listener whose accept queue is full drops the SYN on any Linux host.
TEST(ClientConnectTest, NoConnectionWithinTheTimeoutIsDeadlineExceeded) {
  FakeServer server(/*backlog=*/0);
  server.FillBacklog();
  const auto start = Clock::now();
  auto client = Client::Connect("127.0.0.1:" + std::to_string(server.port()), 200ms);
  const auto elapsed = Clock::now() - start;
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), StatusCode::kDeadlineExceeded) << client.status().ToString();
  EXPECT_TRUE(Contains(client.status(), "within 200 ms")) << client.status().ToString();
  EXPECT_GE(elapsed, 190ms);
  EXPECT_LT(elapsed, 2s);
}

TEST_F(ClientTest, ConnectByAddressAndPing) {
  auto client = Client::Connect("localhost:" + std::to_string(broker_->port()), 2000ms);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  EXPECT_EQ((*client)->address(), "localhost:" + std::to_string(broker_->port()));
  EXPECT_TRUE((*client)->connected());
  auto rtt = (*client)->Ping();
  ASSERT_TRUE(rtt.ok()) << rtt.status().ToString();
  EXPECT_GT(rtt->count(), 0);
  EXPECT_LT(*rtt, 5s);
}

// --- Administration ------------------------------------------------------------------------------

TEST_F(ClientTest, UploadConfigurationReportsTheBrokersErrors) {
  auto client = Connect();
  Status bad = client->UploadConfiguration("[schema.bad]\nid = \"strang\"\n");
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument) << bad.ToString();
  EXPECT_TRUE(Contains(bad, "schema 'bad', field 'id'")) << bad.ToString();
  EXPECT_TRUE(Contains(bad, "strang")) << bad.ToString();
  Status syntax = client->UploadConfiguration("[storage.memory\ntype = ");
  EXPECT_EQ(syntax.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(syntax, "TOML syntax error at line 1")) << syntax.ToString();

  Status good = client->UploadConfiguration(kQuickStart);
  EXPECT_TRUE(good.ok()) << good.ToString();
}

TEST_F(ClientTest, TopographyParsesBackToTheSameDeclarations) {
  auto client = ConnectWithAmount();
  auto toml = client->GetTopography();
  ASSERT_TRUE(toml.ok()) << toml.status().ToString();
  EXPECT_NE(toml->find("[streams.amount]"), std::string::npos) << *toml;
  EXPECT_NE(toml->find("[schema.amount]"), std::string::npos) << *toml;
  Status again = client->UploadConfiguration(*toml);
  EXPECT_TRUE(again.ok()) << again.ToString();
}

TEST_F(ClientTest, DeleteConfigurationRemovesTheStream) {
  auto client = ConnectWithAmount();
  ASSERT_TRUE(client->ProduceJson("amount", Row("k", 1)).ok());
  Status deleted = client->DeleteConfiguration("streams.amount");
  ASSERT_TRUE(deleted.ok()) << deleted.ToString();
  auto produced = client->ProduceJson("amount", Row("k", 2));
  EXPECT_EQ(produced.status().code(), StatusCode::kNotFound) << produced.status().ToString();
  auto topography = client->GetTopography();
  ASSERT_TRUE(topography.ok());
  EXPECT_EQ(topography->find("[streams.amount]"), std::string::npos) << *topography;
  Status missing = client->DeleteConfiguration("streams.amount");
  EXPECT_EQ(missing.code(), StatusCode::kNotFound) << missing.ToString();
}

TEST_F(ClientTest, UploadModuleThenADerivedStreamNamesIt) {
  auto client = Connect();
  const std::string bytes = ReadExampleModule("double");
  const std::vector<uint8_t> wasm(bytes.begin(), bytes.end());
  auto uploaded = client->UploadModule("double", wasm);
  ASSERT_TRUE(uploaded.ok()) << uploaded.status().ToString();
  EXPECT_EQ(*uploaded, 1u);
  Status configured = client->UploadConfiguration(std::string(kQuickStart) + R"(
[streams.result]
base = "amount"
type = "map"
partition_key = "id"
schema = "amount"
fn = "double"
)");
  EXPECT_TRUE(configured.ok()) << configured.ToString();
  auto bad_name = client->UploadModule("../x", wasm);
  EXPECT_EQ(bad_name.status().code(), StatusCode::kInvalidArgument);
  auto not_wasm = client->UploadModule("x", std::vector<uint8_t>{0x00, 'a', 's', 'm'});
  EXPECT_EQ(not_wasm.status().code(), StatusCode::kInvalidArgument);
  auto again = client->UploadModule("double", wasm);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, 2u);
}

TEST_F(ClientTest, MetadataListsStreamsPartitionsAndSchema) {
  auto client = ConnectWithAmount();
  ASSERT_TRUE(
      client->ProduceJson("amount", Row("a", 1) + "\n" + Row("b", 2) + "\n" + Row("a", 3)).ok());
  auto streams = client->Metadata();
  ASSERT_TRUE(streams.ok()) << streams.status().ToString();
  ASSERT_EQ(streams->size(), 1u);
  const StreamInfo& amount = (*streams)[0];
  EXPECT_EQ(amount.name, "amount");
  EXPECT_EQ(amount.kind, "source");
  EXPECT_EQ(amount.schema_name, "amount");
  EXPECT_EQ(amount.partition_key, "id");
  EXPECT_EQ(amount.storage, "memory");
  EXPECT_EQ(amount.partition_count, 2u);
  EXPECT_EQ(amount.record_count, 3u);
  EXPECT_FALSE(amount.partitions_truncated);
  ASSERT_EQ(amount.partitions.size(), 2u);
  EXPECT_EQ(amount.partitions[0].key, "a");
  EXPECT_EQ(amount.partitions[0].count, 2u);
  EXPECT_EQ(amount.partitions[1].key, "b");
  EXPECT_EQ(amount.partitions[1].count, 1u);
  ASSERT_NE(amount.schema, nullptr);
  ASSERT_EQ(amount.schema->num_fields(), 2u);
  EXPECT_EQ(amount.schema->field(0).name, "id");
  EXPECT_EQ(amount.schema->field(0).type, arrow::DataType::Utf8());
  EXPECT_EQ(amount.schema->field(1).name, "data");
  EXPECT_EQ(amount.schema->field(1).type, arrow::DataType::Int32());

  auto one = client->Metadata("amount");
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  EXPECT_EQ(one->size(), 1u);
  auto missing = client->Metadata("nope");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound) << missing.status().ToString();
}

// --- Produce -------------------------------------------------------------------------------------

TEST_F(ClientTest, ProduceJsonGivesEveryRowItsPartitionAndOffset) {
  auto client = ConnectWithAmount();
  auto first = client->ProduceJson("amount",
                                   "[" + Row("a", 1) + "," + Row("b", 2) + "," + Row("a", 3) + "]");
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->partitions, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(first->partition_indexes, (std::vector<uint32_t>{0, 1, 0}));
  EXPECT_EQ(first->offsets, (std::vector<uint64_t>{0, 0, 1}));
  EXPECT_EQ(first->partition_of(2), "a");
  EXPECT_GT(first->timestamp_ms, 1'600'000'000'000u);

  auto ndjson = client->ProduceJson("amount", Row("b", 4) + "\n" + Row("a", 5) + "\n");
  ASSERT_TRUE(ndjson.ok()) << ndjson.status().ToString();
  EXPECT_EQ(ndjson->partitions, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(ndjson->offsets, (std::vector<uint64_t>{1, 2}));
  EXPECT_GE(ndjson->timestamp_ms, first->timestamp_ms);
}

TEST_F(ClientTest, ProduceRecordBatchesAndIpcBytes) {
  auto client = ConnectWithAmount();
  auto one = client->Produce("amount", AmountBatch({{"k", 1}, {"k", 2}}));
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  EXPECT_EQ(one->offsets, (std::vector<uint64_t>{0, 1}));

  const std::vector<arrow::RecordBatch> two = {AmountBatch({{"k", 3}}),
                                               AmountBatch({{"j", 4}, {"k", 5}})};
  auto both = client->Produce("amount", two);
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  EXPECT_EQ(both->partitions, (std::vector<std::string>{"k", "j"}));
  EXPECT_EQ(both->offsets, (std::vector<uint64_t>{2, 0, 3}));

  auto file = arrow::ipc::WriteFile(AmountSchema(), {AmountBatch({{"k", 6}})});
  ASSERT_TRUE(file.ok());
  auto from_file = client->ProduceIpc("amount", file->span());
  ASSERT_TRUE(from_file.ok()) << from_file.status().ToString();
  EXPECT_EQ(from_file->offsets, (std::vector<uint64_t>{4}));

  auto latest = client->QueryLatest("amount", "k");
  ASSERT_TRUE(latest.ok()) << latest.status().ToString();
  EXPECT_EQ(latest->offset, 4u);
  EXPECT_EQ(DataAt(*latest, 0), 6);
}

TEST_F(ClientTest, ProduceErrorsKeepTheBrokersCodeAndText) {
  auto client = ConnectWithAmount();
  auto unknown = client->ProduceJson("nope", Row("k", 1));
  EXPECT_EQ(unknown.status(),
            Status::NotFound("stream 'nope' does not exist (declared streams: amount)"));

  auto bad_row = client->ProduceJson("amount", Row("k", 1) + "\n" + R"({"id":"k","data":"x"})");
  EXPECT_EQ(bad_row.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(bad_row.status(), "row 1, field 'data'")) << bad_row.status().ToString();

  auto wide = arrow::MakeSchema({arrow::Field("id", arrow::DataType::Utf8()),
                                 arrow::Field("data", arrow::DataType::Int64())});
  arrow::ArrayBuilder ids(arrow::DataType::Utf8());
  ASSERT_TRUE(ids.AppendBinary("k").ok());
  arrow::ArrayBuilder data(arrow::DataType::Int64());
  data.AppendPrimitive<int64_t>(1);
  auto batch = arrow::RecordBatch::Make(wide, 1, {ids.Finish(), data.Finish()});
  ASSERT_TRUE(batch.ok());
  auto mismatch = client->Produce("amount", *batch);
  EXPECT_EQ(mismatch.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(mismatch.status(), "field 'data' is int64, the stream has int32"))
      << mismatch.status().ToString();

  // Checked by the client before anything is sent.
  const std::vector<arrow::RecordBatch> mixed = {AmountBatch({{"k", 1}}), *batch};
  auto mixed_result = client->Produce("amount", mixed);
  EXPECT_EQ(mixed_result.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(mixed_result.status(), "batch 1")) << mixed_result.status().ToString();
  auto none = client->Produce("amount", std::span<const arrow::RecordBatch>());
  EXPECT_EQ(none.status().code(), StatusCode::kInvalidArgument);

  // Nothing of the failed requests was committed.
  auto latest = client->QueryLatest("amount", "k");
  EXPECT_EQ(latest.status().code(), StatusCode::kNotFound) << latest.status().ToString();
  EXPECT_TRUE(client->connected());
}

// --- Query ---------------------------------------------------------------------------------------

TEST_F(ClientTest, QueriesDecodeRowsKeysOffsetsAndTimestamps) {
  auto client = ConnectWithAmount();
  auto early =
      client->ProduceJson("amount", Row("k", 10) + "\n" + Row("k", 11) + "\n" + Row("k", 12));
  ASSERT_TRUE(early.ok()) << early.status().ToString();
  std::this_thread::sleep_for(5ms);
  auto late = client->ProduceJson("amount", Row("k", 13) + "\n" + Row("k", 14));
  ASSERT_TRUE(late.ok()) << late.status().ToString();
  ASSERT_GT(late->timestamp_ms, early->timestamp_ms);

  auto at = client->QueryAt("amount", "k", 2);
  ASSERT_TRUE(at.ok()) << at.status().ToString();
  EXPECT_EQ(at->stream, "amount");
  EXPECT_EQ(at->partition_key, "k");
  EXPECT_EQ(at->offset, 2u);
  ASSERT_EQ(at->num_rows(), 1);
  EXPECT_EQ(DataAt(*at, 0), 12);
  EXPECT_EQ(at->batch.column(0).BinaryValue(0), "k");
  EXPECT_EQ(at->timestamps_ms, (std::vector<uint64_t>{early->timestamp_ms}));

  auto latest = client->QueryLatest("amount", "k");
  ASSERT_TRUE(latest.ok()) << latest.status().ToString();
  EXPECT_EQ(latest->offset, 4u);
  EXPECT_EQ(DataAt(*latest, 0), 14);

  auto range = client->QueryRange("amount", "k", 1, 4);
  ASSERT_TRUE(range.ok()) << range.status().ToString();
  EXPECT_EQ(range->offset, 1u);
  ASSERT_EQ(range->num_rows(), 3);
  for (int64_t i = 0; i < 3; ++i) EXPECT_EQ(DataAt(*range, i), 11 + i);
  EXPECT_EQ(range->timestamps_ms,
            (std::vector<uint64_t>{early->timestamp_ms, early->timestamp_ms, late->timestamp_ms}));
  auto clamped = client->QueryRange("amount", "k", 3, 1000);
  ASSERT_TRUE(clamped.ok()) << clamped.status().ToString();
  EXPECT_EQ(clamped->num_rows(), 2);

  auto at_time = client->QueryAtTime("amount", "k", late->timestamp_ms);
  ASSERT_TRUE(at_time.ok()) << at_time.status().ToString();
  EXPECT_EQ(at_time->offset, 3u);
  EXPECT_EQ(DataAt(*at_time, 0), 13);
  auto from_start = client->QueryAtTime("amount", "k", 0);
  ASSERT_TRUE(from_start.ok()) << from_start.status().ToString();
  EXPECT_EQ(from_start->offset, 0u);
}

TEST_F(ClientTest, LongAndIntegerKeysRoundTrip) {
  auto client = Connect();
  Status configured = client->UploadConfiguration(std::string(kQuickStart) + R"(
[schema.counter]
n = "int64"
v = "string"
[streams.counter]
schema = "counter"
partition_key = "n"
)");
  ASSERT_TRUE(configured.ok()) << configured.ToString();
  auto produced = client->ProduceJson("counter", R"({"n":-42,"v":"x"})");
  ASSERT_TRUE(produced.ok()) << produced.status().ToString();
  EXPECT_EQ(produced->partitions, (std::vector<std::string>{"-42"}));
  auto by_int = client->QueryLatest("counter", "-42");
  ASSERT_TRUE(by_int.ok()) << by_int.status().ToString();
  EXPECT_EQ(by_int->partition_key, "-42");

  const std::string long_key(100, 'q');
  ASSERT_TRUE(client->ProduceJson("amount", Row(long_key, 7)).ok());
  auto by_long = client->QueryAt("amount", long_key, 0);
  ASSERT_TRUE(by_long.ok()) << by_long.status().ToString();
  EXPECT_EQ(by_long->partition_key, long_key);
  EXPECT_EQ(DataAt(*by_long, 0), 7);
}

TEST_F(ClientTest, MissingStreamPartitionOrOffsetIsNotFound) {
  auto client = ConnectWithAmount();
  ASSERT_TRUE(client->ProduceJson("amount", Row("k", 1)).ok());
  const std::vector<std::pair<std::string, Result<Records>>> cases = {
      {"offset", client->QueryAt("amount", "k", 99)},
      {"partition", client->QueryLatest("amount", "nokey")},
      {"stream", client->QueryAt("nope", "k", 0)},
      {"range", client->QueryRange("amount", "k", 1, 5)},
      {"time", client->QueryAtTime("amount", "k", uint64_t{1} << 62)},
  };
  for (const auto& [what, result] : cases) {
    EXPECT_EQ(result.status().code(), StatusCode::kNotFound)
        << what << ": " << result.status().ToString();
    EXPECT_FALSE(result.status().message().empty()) << what;
  }
  auto empty_range = client->QueryRange("amount", "k", 0, 0);
  EXPECT_EQ(empty_range.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(client->connected());
}

// --- Pipelining and threads ----------------------------------------------------------------------

TEST_F(ClientTest, PipelinedProducesAreAnsweredInOrder) {
  auto client = ConnectWithAmount();
  constexpr int kRequests = 1000;
  std::vector<Pending<ProduceResult>> pending;
  pending.reserve(kRequests);
  for (int i = 0; i < kRequests; ++i)
    pending.push_back(client->ProduceJsonAsync("amount", Row("p", i)));
  for (int i = 0; i < kRequests; ++i) {
    auto result = pending[static_cast<size_t>(i)].Get();
    ASSERT_TRUE(result.ok()) << i << ": " << result.status().ToString();
    ASSERT_EQ(result->offsets, (std::vector<uint64_t>{static_cast<uint64_t>(i)}));
  }
  auto all = client->QueryRange("amount", "p", 0, kRequests);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  ASSERT_EQ(all->num_rows(), kRequests);
  for (int i = 0; i < kRequests; ++i) ASSERT_EQ(DataAt(*all, i), i);

  // Queries pipeline too; a dropped Pending's reply is read and discarded.
  auto dropped = client->QueryAtAsync("amount", "p", 1);
  auto second = client->QueryAtAsync("amount", "p", 2);
  { auto discard = std::move(dropped); }
  auto got = second.Get();
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(DataAt(*got, 0), 2);
  auto twice = second.Get();
  EXPECT_EQ(twice.status().code(), StatusCode::kInvalidArgument);
}

TEST_F(ClientTest, ThreadsShareOneClient) {
  auto client = ConnectWithAmount();
  constexpr int kThreads = 4;
  constexpr int kCalls = 500;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::string key = "t" + std::to_string(t);
      for (int i = 0; i < kCalls; ++i) {
        if (i % 5 == 4) {
          auto latest = client->QueryLatest("amount", key);
          if (!latest.ok() || latest->offset != static_cast<uint64_t>(i - i / 5 - 1) ||
              latest->partition_key != key || DataAt(*latest, 0) != t * 10000 + i - 1) {
            ++wrong;
          }
          continue;
        }
        auto produced = client->ProduceJson("amount", Row(key, t * 10000 + i));
        const uint64_t expected = static_cast<uint64_t>(i - i / 5);
        if (!produced.ok() || produced->offsets != std::vector<uint64_t>{expected} ||
            produced->partitions != std::vector<std::string>{key}) {
          ++wrong;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

// --- Failures ------------------------------------------------------------------------------------

TEST(ClientFailureTest, NoReplyWithinTheRequestTimeoutClosesTheConnection) {
  FakeServer silent;
  ClientOptions options;
  options.request_timeout = 200ms;
  auto client = ConnectTo(silent.port(), options);
  ASSERT_NE(client, nullptr);
  auto earlier = client->QueryLatestAsync("amount", "k");
  const auto start = Clock::now();
  auto ping = client->Ping();
  const auto elapsed = Clock::now() - start;
  EXPECT_EQ(ping.status().code(), StatusCode::kDeadlineExceeded) << ping.status().ToString();
  EXPECT_TRUE(Contains(ping.status(), "no reply to the ping within 200 ms"))
      << ping.status().ToString();
  EXPECT_GE(elapsed, 190ms);
  EXPECT_LT(elapsed, 2s);
  EXPECT_FALSE(client->connected());
  // The request before it was failed by the close; later requests fail at once.
  auto earlier_result = earlier.Get();
  EXPECT_EQ(earlier_result.status().code(), StatusCode::kIOError)
      << earlier_result.status().ToString();
  auto later = client->ProduceJson("amount", Row("k", 1));
  EXPECT_EQ(later.status().code(), StatusCode::kIOError) << later.status().ToString();
}

TEST(ClientFailureTest, ReplyFrameOverTheLimitIsCorruption) {
  FakeServer server;
  ClientOptions options;
  options.max_frame_bytes = 1024;
  auto client = ConnectTo(server.port(), options);
  ASSERT_NE(client, nullptr);
  auto waiting = client->QueryLatestAsync("amount", "k");
  const int peer = server.Accept();
  const unsigned char huge_header[] = {0x7f, 0xff, 0xff, 0xff};
  ASSERT_EQ(::send(peer, huge_header, sizeof(huge_header), MSG_NOSIGNAL), 4);
  auto result = waiting.Get();
  EXPECT_EQ(result.status().code(), StatusCode::kCorruption) << result.status().ToString();
  EXPECT_TRUE(Contains(result.status(), "exceeds the limit of 1024 bytes"))
      << result.status().ToString();
  EXPECT_FALSE(client->connected());
  EXPECT_EQ(client->Ping().status().code(), StatusCode::kIOError);
}

TEST(ClientFailureTest, DestroyingTheClientFailsWaitingCalls) {
  FakeServer silent;
  auto client = ConnectTo(silent.port());
  ASSERT_NE(client, nullptr);
  auto waiting = client->QueryLatestAsync("amount", "k");
  std::thread waiter([&] {
    auto result = waiting.Get();
    EXPECT_EQ(result.status().code(), StatusCode::kIOError) << result.status().ToString();
  });
  std::this_thread::sleep_for(50ms);
  client.reset();
  waiter.join();
}

TEST(ClientFailureTest, CloseIsFinalAndIdempotent) {
  FakeServer silent;
  auto client = ConnectTo(silent.port());
  ASSERT_NE(client, nullptr);
  client->Close();
  client->Close();
  EXPECT_FALSE(client->connected());
  auto ping = client->Ping();
  EXPECT_EQ(ping.status().code(), StatusCode::kIOError);
  EXPECT_TRUE(Contains(ping.status(), "not connected to 127.0.0.1:")) << ping.status().ToString();
}

TEST_F(ClientTest, RequestOverTheLimitIsRefusedBeforeSending) {
  ClientOptions options;
  options.max_frame_bytes = 1024;
  auto client = Connect(options);
  ASSERT_TRUE(client->UploadConfiguration(kQuickStart).ok());
  auto big = client->ProduceJson("amount",
                                 R"({"id":"k","data":1,"pad":")" + std::string(2000, 'x') + "\"}");
  EXPECT_EQ(big.status().code(), StatusCode::kResourceExhausted) << big.status().ToString();
  EXPECT_TRUE(Contains(big.status(), "max_frame_bytes")) << big.status().ToString();
  EXPECT_TRUE(client->connected());
  EXPECT_TRUE(client->Ping().ok());
}

// A broker with 4 KiB frames and records under a 1500-byte key (in each record's data and again
// in the reply's partition field): one record per reply fits. QueryRange answers that one;
// QueryRangeEach asks again until the range is done.
TEST(ClientSmallFrameTest, QueryRangeEachContinuesWhereEachReplyStopped) {
  TempDir tmp;
  BrokerProcess broker(tmp.path() + "/data", {"--max-frame-bytes=4096"});
  broker.Start();
  auto client = ConnectTo(broker.port());
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->UploadConfiguration(kQuickStart).ok());
  const std::string key(1500, 'k');
  for (int i = 0; i < 3; ++i) {
    auto produced = client->ProduceJson("amount", Row(key, 10 + i));
    ASSERT_TRUE(produced.ok()) << produced.status().ToString();
  }

  auto one = client->QueryRange("amount", key, 0, UINT64_MAX);
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  EXPECT_EQ(one->offset, 0u);
  EXPECT_EQ(one->num_rows(), 1);

  std::vector<uint64_t> offsets;
  std::vector<int32_t> data;
  Status s = client->QueryRangeEach("amount", key, 0, UINT64_MAX, [&](const Records& records) {
    EXPECT_EQ(records.partition_key, key);
    for (int64_t i = 0; i < records.num_rows(); ++i) {
      offsets.push_back(records.offset + static_cast<uint64_t>(i));
      data.push_back(records.batch.column(1).Value<int32_t>(i));
    }
    return Status::OK();
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(offsets, (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(data, (std::vector<int32_t>{10, 11, 12}));

  // Up to an end inside the partition, and an error from the callback stops the range.
  offsets.clear();
  s = client->QueryRangeEach("amount", key, 1, 2, [&](const Records& records) {
    offsets.push_back(records.offset);
    return Status::OK();
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(offsets, (std::vector<uint64_t>{1}));
  int calls = 0;
  s = client->QueryRangeEach("amount", key, 0, UINT64_MAX, [&](const Records&) {
    ++calls;
    return Status::Internal("the callback stops here");
  });
  EXPECT_EQ(s, Status::Internal("the callback stops here"));
  EXPECT_EQ(calls, 1);
  // A start past the end is NotFound, as for QueryRange.
  s = client->QueryRangeEach("amount", key, 3, UINT64_MAX,
                             [&](const Records&) { return Status::OK(); });
  EXPECT_EQ(s.code(), StatusCode::kNotFound) << s.ToString();

  // A record under a 4000-byte key can be produced, but no reply can carry it.
  const std::string big(4000, 'b');
  ASSERT_TRUE(client->ProduceJson("amount", Row(big, 1)).ok());
  auto too_large = client->QueryAt("amount", big, 0);
  EXPECT_EQ(too_large.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(too_large.status().message(),
            "stream 'amount': the record at offset 0 of partition '" + std::string(64, 'b') +
                "'…(4000 bytes) needs a reply of 8452 bytes, more than the frame limit of 4096 "
                "bytes");
  EXPECT_TRUE(client->Ping().ok());
}

TEST_F(ClientTest, BrokerKilledMidSessionFailsWaitingAndLaterCalls) {
  auto client = ConnectWithAmount();
  std::atomic<bool> failed{false};
  std::thread caller([&] {
    for (int i = 0; i < 100000; ++i) {
      auto latest = client->ProduceJson("amount", Row("k", i));
      if (!latest.ok()) {
        EXPECT_EQ(latest.status().code(), StatusCode::kIOError) << latest.status().ToString();
        failed = true;
        return;
      }
    }
  });
  std::vector<Pending<ProduceResult>> pipelined;
  for (int i = 0; i < 200; ++i)
    pipelined.push_back(client->ProduceJsonAsync("amount", Row("p", i)));
  broker_->Kill9();
  const auto start = Clock::now();
  caller.join();
  EXPECT_TRUE(failed.load());
  int answered = 0;
  for (auto& pending : pipelined) {
    auto result = pending.Get();
    if (result.ok()) {
      ++answered;
    } else {
      EXPECT_EQ(result.status().code(), StatusCode::kIOError) << result.status().ToString();
    }
  }
  EXPECT_LT(Clock::now() - start, 5s);
  EXPECT_FALSE(client->connected());
  auto later = client->Ping();
  EXPECT_EQ(later.status().code(), StatusCode::kIOError) << later.status().ToString();
  EXPECT_TRUE(Contains(later.status(), "not connected")) << later.status().ToString();
  RecordProperty("answered_before_the_kill", answered);
}

}  // namespace
}  // namespace higgins::test
