// End-to-end tests of window streams (docs/configuration.md, "Window streams") through the client
// library: a real `higgins` process for the product README's count window and for a restart
// after kill -9 on file storage, and an in-process broker with a controlled clock on loopback
// for time windows.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "broker/broker.h"
#include "broker_process.h"
#include "config/readme_examples.h"
#include "higgins/client.h"
#include "server/asio.h"
#include "server/request_handler.h"
#include "server/server.h"
#include "udf/testing/fake_engine.h"

namespace higgins {

bool operator==(const WindowBounds& a, const WindowBounds& b) {
  return a.closed == b.closed && a.by_time == b.by_time && a.start == b.start && a.end == b.end &&
         a.first_offset == b.first_offset;
}
std::ostream& operator<<(std::ostream& os, const WindowBounds& w) {
  return os << "{" << (w.closed ? "closed" : "open") << (w.by_time ? " time [" : " count [")
            << w.start << ", " << w.end << ") first offset " << w.first_offset << "}";
}

namespace test {
namespace {

std::unique_ptr<Client> ConnectTo(uint16_t port) {
  ClientOptions options;
  options.host = "127.0.0.1";
  options.port = port;
  auto client = Client::Connect(options);
  EXPECT_TRUE(client.ok()) << client.status().ToString();
  return client.ok() ? *std::move(client) : nullptr;
}

/// Values of the int32 column `column` of the records.
std::vector<int32_t> Ints(const Result<Records>& records, std::string_view column) {
  EXPECT_TRUE(records.ok()) << records.status().ToString();
  if (!records.ok()) return {};
  auto index = records->batch.schema()->FieldIndex(column);
  EXPECT_TRUE(index.has_value()) << column;
  if (!index) return {};
  std::vector<int32_t> out;
  for (int64_t r = 0; r < records->num_rows(); ++r) {
    out.push_back(records->batch.column(static_cast<int>(*index)).Value<int32_t>(r));
  }
  return out;
}

/// The window of a reply: its number, bounds and members' `column` values.
struct Window {
  uint64_t number = 0;
  WindowBounds bounds;
  std::vector<int32_t> values;
  friend bool operator==(const Window&, const Window&) = default;
  friend std::ostream& operator<<(std::ostream& os, const Window& w) {
    os << "window " << w.number << " " << w.bounds << ":";
    for (int32_t v : w.values) os << " " << v;
    return os;
  }
};

Window WindowOf(const Result<Records>& records, std::string_view column) {
  EXPECT_TRUE(records.ok()) << records.status().ToString();
  if (!records.ok()) return {};
  EXPECT_TRUE(records->window.has_value());
  EXPECT_EQ(records->timestamps_ms.size(), static_cast<size_t>(records->num_rows()));
  return {records->offset, records->window.value_or(WindowBounds{}), Ints(records, column)};
}

std::string ValueRow(int32_t i) {
  return R"({"id":"1","some_data":"s)" + std::to_string(i) + R"(","other_data":"o","i":)" +
         std::to_string(i) + "}\n";
}

void ProduceValues(Client& client, int32_t from, int32_t to) {
  std::string ndjson;
  for (int32_t i = from; i <= to; ++i) ndjson += ValueRow(i);
  auto produced = client.ProduceJson("value", ndjson);
  ASSERT_TRUE(produced.ok()) << produced.status().ToString();
}

const std::string kMemoryWindowExample =
    "[storage.memory]\ntype = \"memory\"\n" + std::string(config::testing::kWindowExample);

TEST(WindowE2eTest, ReadmeExampleNineRecordsGiveAClosedWindowOfFiveAndAnOpenOneOfFour) {
  TempDir tmp;
  BrokerProcess broker(tmp.path() + "/data");
  broker.Start();
  auto client = ConnectTo(broker.port());
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->UploadConfiguration(kMemoryWindowExample).ok());
  // One request per record, as the README's example produces them.
  for (int32_t i = 1; i <= 9; ++i) {
    auto produced = client->ProduceJson("value", ValueRow(i));
    ASSERT_TRUE(produced.ok()) << produced.status().ToString();
  }

  EXPECT_EQ(WindowOf(client->QueryLatest("value_windowed", "1"), "i"),
            (Window{1, {false, false, 5, 10, 5}, {6, 7, 8, 9}}));
  EXPECT_EQ(WindowOf(client->QueryAt("value_windowed", "1", 0), "i"),
            (Window{0, {true, false, 0, 5, 0}, {1, 2, 3, 4, 5}}));
  auto window0 = client->QueryAt("value_windowed", "1", 0);
  auto base = client->QueryRange("value", "1", 0, 5);
  ASSERT_TRUE(window0.ok() && base.ok());
  EXPECT_EQ(window0->timestamps_ms, base->timestamps_ms);

  auto missing = client->QueryAt("value_windowed", "1", 2);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(),
            "stream 'value_windowed': window 2 of partition '1' does not exist yet (the latest "
            "is 1)");
  EXPECT_EQ(client->QueryLatest("value_windowed", "2").status().message(),
            "stream 'value_windowed': partition '2' has no records");
  auto range = client->QueryRange("value_windowed", "1", 0, 2);
  EXPECT_EQ(range.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(range.status().message(),
            "stream 'value_windowed': window streams answer OFFSET and LATEST queries");
  EXPECT_EQ(client->QueryAtTime("value_windowed", "1", 0).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(client->ProduceJson("value_windowed", ValueRow(10)).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_FALSE(client->QueryLatest("value", "1")->window.has_value());

  auto metadata = client->Metadata("value_windowed");
  ASSERT_TRUE(metadata.ok()) << metadata.status().ToString();
  ASSERT_EQ(metadata->size(), 1u);
  EXPECT_EQ((*metadata)[0].kind, "window");
  EXPECT_EQ((*metadata)[0].partition_count, 1u);
  EXPECT_EQ((*metadata)[0].record_count, 2u);
  ASSERT_EQ((*metadata)[0].partitions.size(), 1u);
  EXPECT_EQ((*metadata)[0].partitions[0].key, "1");
  EXPECT_EQ((*metadata)[0].partitions[0].count, 2u);

  ProduceValues(*client, 10, 10);  // fills window 1
  EXPECT_EQ(WindowOf(client->QueryLatest("value_windowed", "1"), "i"),
            (Window{1, {true, false, 5, 10, 5}, {6, 7, 8, 9, 10}}));
}

TEST(WindowE2eTest, RestartAfterKill9InTheMiddleOfAWindow) {
  TempDir tmp;
  BrokerProcess broker(tmp.path() + "/data");
  broker.Start();
  const std::string config =
      "[storage.disk]\ntype = \"file\"\n" + std::string(config::testing::kWindowExample) + R"(
[streams.value_sliding]
base = "value"
type = "window"
partition_key = "id"
schema = "value"
window = { type = "count", interval = 5, slide = 2 }
)";
  {
    auto client = ConnectTo(broker.port());
    ASSERT_NE(client, nullptr);
    ASSERT_TRUE(client->UploadConfiguration(config).ok());
    ProduceValues(*client, 1, 4);
    ProduceValues(*client, 5, 7);
  }
  broker.Kill9();
  broker.Start();
  auto client = ConnectTo(broker.port());
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(WindowOf(client->QueryLatest("value_windowed", "1"), "i"),
            (Window{1, {false, false, 5, 10, 5}, {6, 7}}));
  EXPECT_EQ(WindowOf(client->QueryAt("value_windowed", "1", 0), "i"),
            (Window{0, {true, false, 0, 5, 0}, {1, 2, 3, 4, 5}}));
  EXPECT_EQ(WindowOf(client->QueryLatest("value_sliding", "1"), "i"),
            (Window{3, {false, false, 6, 11, 6}, {7}}));

  ProduceValues(*client, 8, 11);
  EXPECT_EQ(WindowOf(client->QueryAt("value_windowed", "1", 1), "i"),
            (Window{1, {true, false, 5, 10, 5}, {6, 7, 8, 9, 10}}));
  EXPECT_EQ(WindowOf(client->QueryLatest("value_windowed", "1"), "i"),
            (Window{2, {false, false, 10, 15, 10}, {11}}));
  EXPECT_EQ(WindowOf(client->QueryAt("value_sliding", "1", 2), "i"),
            (Window{2, {true, false, 4, 9, 4}, {5, 6, 7, 8, 9}}));
  EXPECT_EQ(WindowOf(client->QueryAt("value_sliding", "1", 3), "i"),
            (Window{3, {true, false, 6, 11, 6}, {7, 8, 9, 10, 11}}));
  EXPECT_EQ(WindowOf(client->QueryLatest("value_sliding", "1"), "i"),
            (Window{5, {false, false, 10, 15, 10}, {11}}));

  // A graceful restart too: the same windows.
  client.reset();
  EXPECT_EQ(broker.Terminate(), 0);
  broker.Start();
  client = ConnectTo(broker.port());
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(WindowOf(client->QueryLatest("value_windowed", "1"), "i"),
            (Window{2, {false, false, 10, 15, 10}, {11}}));
}

/// A broker in this process with a clock the test sets, served on loopback.
class ClockedBroker {
 public:
  explicit ClockedBroker(const std::string& dir) : work_(asio::make_work_guard(io_)) {
    broker::BrokerOptions options;
    options.dir = dir;
    options.engine = std::make_shared<udf::FakeEngine>();
    options.clock = [this] { return now_ms.load(); };
    auto broker = broker::Broker::Open(std::move(options));
    EXPECT_TRUE(broker.ok()) << broker.status().ToString();
    if (!broker.ok()) return;
    broker_ = *std::move(broker);
    handler_ = std::make_unique<server::RequestHandler>(broker_.get(), 64u << 20);
    server::ServerOptions server_options;
    server_options.port = 0;
    server_ = std::make_unique<server::Server>(std::vector<asio::io_context*>{&io_}, handler_.get(),
                                               server_options);
    Status started = server_->Start();
    EXPECT_TRUE(started.ok()) << started.ToString();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~ClockedBroker() {
    if (server_) server_->Stop([this] { work_.reset(); });
    if (thread_.joinable()) thread_.join();
    server_.reset();
    handler_.reset();
    broker_.reset();
  }
  uint16_t port() const { return server_ ? server_->port() : 0; }

  std::atomic<int64_t> now_ms{0};

 private:
  asio::io_context io_{1};
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::unique_ptr<broker::Broker> broker_;
  std::unique_ptr<server::RequestHandler> handler_;
  std::unique_ptr<server::Server> server_;
  std::thread thread_;
};

constexpr char kTimeWindows[] = R"([storage.memory]
type = "memory"
[schema.amount]
id = "string"
data = "int32"
[streams.amount]
schema = "amount"
partition_key = "id"
[streams.amount_10s]
base = "amount"
type = "window"
schema = "amount"
partition_key = "id"
window = { type = "time", interval = "10s" }
[streams.amount_hop]
base = "amount"
type = "window"
schema = "amount"
partition_key = "id"
window = { type = "time", interval = "10s", slide = "5s" }
)";

TEST(WindowE2eTest, TimeWindowsFollowTheBrokersClock) {
  TempDir tmp;
  ClockedBroker broker(tmp.path() + "/data");
  auto client = ConnectTo(broker.port());
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->UploadConfiguration(kTimeWindows).ok());
  constexpr int64_t t0 = 1'795'953'600'000;  // 2026-11-29T12:00:00Z
  // Produces at clock reading `at`; returns the commit timestamp.
  auto produce = [&](int64_t at, int32_t data) -> uint64_t {
    broker.now_ms = at;
    auto produced =
        client->ProduceJson("amount", R"({"id":"k","data":)" + std::to_string(data) + "}");
    EXPECT_TRUE(produced.ok()) << produced.status().ToString();
    return produced.ok() ? produced->timestamp_ms : 0;
  };
  auto window = [&](std::string_view stream, std::optional<uint64_t> w) {
    return WindowOf(w ? client->QueryAt(stream, "k", *w) : client->QueryLatest(stream, "k"),
                    "data");
  };
  const uint64_t t = t0;

  EXPECT_EQ(produce(t0 + 12'000, 1), t + 12'000);
  EXPECT_EQ(produce(t0 + 15'500, 2), t + 15'500);
  EXPECT_EQ(window("amount_10s", std::nullopt),
            (Window{0, {false, true, t + 10'000, t + 20'000, 0}, {1, 2}}));
  broker.now_ms = t0 + 19'999;
  EXPECT_FALSE(window("amount_10s", 0).bounds.closed);
  broker.now_ms = t0 + 20'000;  // the clock alone closes it
  EXPECT_EQ(window("amount_10s", 0), (Window{0, {true, true, t + 10'000, t + 20'000, 0}, {1, 2}}));

  EXPECT_EQ(produce(t0 + 41'000, 3), t + 41'000);
  EXPECT_EQ(window("amount_10s", std::nullopt),
            (Window{3, {false, true, t + 40'000, t + 50'000, 2}, {3}}));
  EXPECT_EQ(window("amount_10s", 1), (Window{1, {true, true, t + 20'000, t + 30'000, 2}, {}}));
  EXPECT_EQ(window("amount_10s", 2), (Window{2, {true, true, t + 30'000, t + 40'000, 2}, {}}));
  auto past = client->QueryAt("amount_10s", "k", 4);
  EXPECT_EQ(past.status().message(),
            "stream 'amount_10s': window 4 of partition 'k' does not exist yet (the latest is "
            "3)");

  // Hopping: windows start every 5 s; window 0 is [5 s, 15 s), the first holding 12 s.
  EXPECT_EQ(window("amount_hop", 0), (Window{0, {true, true, t + 5'000, t + 15'000, 0}, {1}}));
  EXPECT_EQ(window("amount_hop", 1), (Window{1, {true, true, t + 10'000, t + 20'000, 0}, {1, 2}}));
  EXPECT_EQ(window("amount_hop", 2), (Window{2, {true, true, t + 15'000, t + 25'000, 1}, {2}}));
  EXPECT_EQ(window("amount_hop", std::nullopt),
            (Window{7, {false, true, t + 40'000, t + 50'000, 2}, {3}}));

  broker.now_ms = t0 + 50'000;
  EXPECT_TRUE(window("amount_10s", std::nullopt).bounds.closed);
  // A commit after the window closed lands in the next one, even with a clock reading inside it
  // (a commit that read the clock before the query but was slower to get to its stream).
  EXPECT_EQ(produce(t0 + 49'000, 4), t + 50'000);
  EXPECT_EQ(window("amount_10s", 3), (Window{3, {true, true, t + 40'000, t + 50'000, 2}, {3}}));
  EXPECT_EQ(window("amount_10s", std::nullopt),
            (Window{4, {false, true, t + 50'000, t + 60'000, 3}, {4}}));
  auto metadata = client->Metadata("amount_10s");
  ASSERT_TRUE(metadata.ok()) << metadata.status().ToString();
  EXPECT_EQ((*metadata)[0].record_count, 5u);
}

}  // namespace
}  // namespace test
}  // namespace higgins
