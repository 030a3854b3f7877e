// StreamTail over a real broker in process (memory storage): every committed record reaches
// every reader once, and a push waits until every reader has queued the one before.
#include "server/http/stream_tail.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <filesystem>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "broker/broker.h"
#include "udf/testing/fake_engine.h"

namespace higgins::server::http {
namespace {

using namespace std::chrono_literals;

constexpr std::string_view kConfiguration = R"toml(
[storage.mem]
type = "memory"
[schema.event]
id = "string"
n = "int64"
[streams.events]
schema = "event"
partition_key = "id"
)toml";

/// What one reader was given: the offsets of each batch, and the Delivery of each, kept until
/// the test lets go of it when `hold` is set.
struct Received {
  std::mutex mu;
  std::condition_variable changed;
  std::vector<std::vector<uint64_t>> batches;
  std::vector<StreamTail::Delivery> held;
  bool hold = false;

  StreamTail::Sink Sink() {
    return [this](const TailBatch& batch, const StreamTail::Delivery& delivery) {
      std::lock_guard lock(mu);
      std::vector<uint64_t> offsets;
      for (const TailRecord& record : batch->records) offsets.push_back(record.offset);
      batches.push_back(std::move(offsets));
      if (hold) held.push_back(delivery);
      changed.notify_all();
    };
  }
  /// Waits until `n` batches have come (false after 5 s).
  bool WaitFor(size_t n) {
    std::unique_lock lock(mu);
    return changed.wait_for(lock, 5s, [&] { return batches.size() >= n; });
  }
  size_t count() {
    std::lock_guard lock(mu);
    return batches.size();
  }
};

class StreamTailTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("higgins_stream_tail_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    broker::BrokerOptions options;
    options.dir = dir_.string();
    options.engine = std::make_shared<udf::FakeEngine>();
    auto broker = broker::Broker::Open(options);
    ASSERT_TRUE(broker.ok()) << broker.status().ToString();
    broker_ = *std::move(broker);
    auto outcome = broker_->CreateConfiguration(kConfiguration);
    ASSERT_TRUE(outcome.ok()) << outcome.status().ToString();
    thread_ = std::thread([this] { io_.run(); });
  }
  void TearDown() override {
    if (tail_) tail_->Stop();
    tail_.reset();
    guard_.reset();
    io_.stop();
    thread_.join();
    broker_.reset();
    std::filesystem::remove_all(dir_);
  }

  /// Opens the tail of `events`, pushing at most every `interval`.
  void OpenTail(std::chrono::microseconds interval) {
    auto tail = StreamTail::Open(broker_.get(), "events", io_.get_executor(), interval);
    ASSERT_TRUE(tail.ok()) << tail.status().ToString();
    tail_ = *tail;
  }
  /// Subscribes `reader` and waits until its feed has started.
  void Subscribe(Received* reader) {
    std::promise<void> started;
    tail_->Subscribe(
        reader->Sink(), [&](const StreamTail::Positions&) { started.set_value(); }, false);
    started.get_future().wait();
  }
  void Produce(int64_t n) {
    std::promise<Result<stream::ProduceResult>> done;
    broker_->Produce("events", R"({"id":"k","n":)" + std::to_string(n) + "}",
                     stream::PayloadFormat::kJson,
                     [&](Result<stream::ProduceResult> r) { done.set_value(std::move(r)); });
    auto result = done.get_future().get();
    ASSERT_TRUE(result.ok()) << result.status().ToString();
  }

  std::filesystem::path dir_;
  std::unique_ptr<broker::Broker> broker_;
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> guard_ = asio::make_work_guard(io_);
  std::thread thread_;
  std::shared_ptr<StreamTail> tail_;
  // The readers outlive the tail's last call of their sinks (TearDown stops the tail and its
  // thread); the Deliveries they hold go before io_.
  Received first_;
  Received second_;
  // Which of many readers were handed a batch, by index.
  std::mutex handed_mu_;
  std::vector<int> handed_;
};

TEST_F(StreamTailTest, EveryCommittedRecordReachesEveryReaderOnceInOrder) {
  OpenTail(0us);
  Subscribe(&first_);
  Subscribe(&second_);
  for (int64_t n = 0; n < 5; ++n) Produce(n);
  for (Received* reader : {&first_, &second_}) {
    std::vector<uint64_t> offsets;
    for (int attempt = 0; attempt < 50 && offsets.size() < 5; ++attempt) {
      std::this_thread::sleep_for(20ms);
      std::lock_guard lock(reader->mu);
      offsets.clear();
      for (const auto& batch : reader->batches) {
        offsets.insert(offsets.end(), batch.begin(), batch.end());
      }
    }
    EXPECT_EQ(offsets, (std::vector<uint64_t>{0, 1, 2, 3, 4}));
  }
}

TEST_F(StreamTailTest, APushWaitsUntilEveryReaderHasQueuedTheOneBefore) {
  OpenTail(0us);
  Received& quick = first_;
  Received& slow = second_;
  slow.hold = true;  // keeps each Delivery until the test lets go
  Subscribe(&quick);
  Subscribe(&slow);
  Produce(0);
  ASSERT_TRUE(quick.WaitFor(1));
  ASSERT_TRUE(slow.WaitFor(1));
  Produce(1);
  Produce(2);
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(quick.count(), 1u) << "a push went out while a reader still held the last one";
  {
    std::lock_guard lock(slow.mu);
    slow.held.clear();  // the slow reader has queued it
  }
  ASSERT_TRUE(quick.WaitFor(2));
  std::lock_guard lock(quick.mu);
  EXPECT_EQ(quick.batches[1], (std::vector<uint64_t>{1, 2}))
      << "the records committed meanwhile come in one push";
}

TEST_F(StreamTailTest, APushReachesEveryOneOfMoreReadersThanOneSliceHolds) {
  OpenTail(0us);
  constexpr int kReaders = 300;  // a push is handed out 64 readers per handler
  for (int r = 0; r < kReaders; ++r) {
    std::promise<void> started;
    tail_->Subscribe(
        [this, r](const TailBatch& batch, const StreamTail::Delivery&) {
          std::lock_guard lock(handed_mu_);
          handed_.insert(handed_.end(), batch->records.size(), r);
        },
        [&](const StreamTail::Positions&) { started.set_value(); }, false);
    started.get_future().wait();
  }
  Produce(7);
  std::vector<int> handed;
  for (int attempt = 0; attempt < 250 && handed.size() < kReaders; ++attempt) {
    std::this_thread::sleep_for(20ms);
    std::lock_guard lock(handed_mu_);
    handed = handed_;
  }
  std::sort(handed.begin(), handed.end());
  std::vector<int> every(kReaders);
  for (int r = 0; r < kReaders; ++r) every[r] = r;
  EXPECT_EQ(handed, every) << "each reader once, none left out";
}

}  // namespace
}  // namespace higgins::server::http
