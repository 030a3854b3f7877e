// SubscriptionManager over a real StreamLog on memory storage: delivery in offset order, demand,
// redelivery after the visibility timeout, competing consumers, and a closed consumer's records
// going to another. The stream's commit listener feeds the manager, as the broker wires it.
#include "subscription/subscription_manager.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <future>
#include <mutex>
#include <set>
#include <thread>

#include "stream/group_committer.h"
#include "stream/stream_log.h"

namespace higgins::subscription {
namespace {

using namespace std::chrono_literals;

/// Pushes received by one consumer; the delivery thread calls `push`.
class Consumer {
 public:
  PushSink Sink() {
    PushSink sink;
    sink.push = [this](std::vector<SubscriptionPush> pushes) {
      std::lock_guard lock(mu_);
      calls_.push_back(pushes.size());
      for (SubscriptionPush& p : pushes) pushes_.push_back(std::move(p));
    };
    return sink;
  }
  /// (key, offset, redelivered) of every record received, in arrival order.
  struct Got {
    std::string key;
    uint64_t offset;
    bool redelivered;
  };
  std::vector<Got> Records() {
    std::lock_guard lock(mu_);
    std::vector<Got> out;
    for (const auto& p : pushes_) {
      for (int64_t r = 0; r < p.records.rows.batch.num_rows(); ++r) {
        out.push_back({p.key, p.records.offset + static_cast<uint64_t>(r), p.redelivered});
      }
    }
    return out;
  }
  bool WaitFor(size_t n, std::chrono::milliseconds limit = 5s) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (Records().size() < n && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(5ms);
    }
    return Records().size() >= n;
  }

  /// The number of pushes of each call of the sink, in order.
  std::vector<size_t> Calls() {
    std::lock_guard lock(mu_);
    return calls_;
  }

 private:
  std::mutex mu_;
  std::vector<SubscriptionPush> pushes_;
  std::vector<size_t> calls_;
};

class SubscriptionManagerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/higgins-subscriptions-XXXXXX";
    dir_ = ::mkdtemp(pattern);
    storage_ = storage::MakeMemoryStorage();
    stream::StreamLog::Options o;
    o.name = "amount";
    o.id = StreamId(1);
    o.schema = arrow::MakeSchema({arrow::Field("id", arrow::DataType::Utf8(), false),
                                  arrow::Field("data", arrow::DataType::Int32())});
    o.partition_key = "id";
    o.buckets = 2;
    o.storage = storage_.get();
    auto log = stream::StreamLog::Open(o);
    ASSERT_TRUE(log.ok()) << log.status().ToString();
    log_ = *std::move(log);
    SubscriptionManager::Options options;
    options.dir = dir_;
    manager_ = std::make_unique<SubscriptionManager>(options);
    log_->SetCommitListener(
        [this](const std::vector<std::string_view>& keys) { manager_->OnCommit("amount", keys); });
    manager_->Start();
  }
  void TearDown() override {
    manager_->Stop();
    committer_.Stop();
    std::filesystem::remove_all(dir_);
  }
  void Produce(std::string_view json) {
    auto prepared = log_->Prepare(json, stream::PayloadFormat::kJson);
    ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
    std::promise<Result<stream::ProduceResult>> done;
    committer_.Submit(log_, *std::move(prepared),
                      [&](Result<stream::ProduceResult> r) { done.set_value(std::move(r)); });
    auto result = done.get_future().get();
    ASSERT_TRUE(result.ok()) << result.status().ToString();
  }
  SubscriptionId Create(uint64_t timeout_ms) {
    SubscriptionManager::StreamRef ref{MakeStreamSource(log_), StreamId(1), false, "amount", false};
    auto id = manager_->Create("amount", ref, SubscriptionStart{},
                               std::chrono::milliseconds(timeout_ms));
    EXPECT_TRUE(id.ok()) << id.status().ToString();
    return id.ok() ? *id : SubscriptionId();
  }

  std::string dir_;
  std::unique_ptr<storage::Storage> storage_;
  std::shared_ptr<stream::StreamLog> log_;
  stream::GroupCommitter committer_;
  std::unique_ptr<SubscriptionManager> manager_;
};

TEST_F(SubscriptionManagerTest, AConsumerBehindGetsManyPartitionsPerSinkCallAndALiveOneGetsOne) {
  // 100 partitions with records before the take: one delivery round grants them all to the one
  // consumer, which receives them in a few calls rather than 100.
  std::string json = "[";
  for (int k = 0; k < 100; ++k) {
    json += (k == 0 ? "" : ",") + std::string(R"({"id":"k)") + std::to_string(k) + R"(","data":1})";
  }
  Produce(json + "]");
  const SubscriptionId id = Create(60'000);
  Consumer consumer;
  ASSERT_TRUE(manager_->Take(id, "amount", ConsumerId(1), 1000, consumer.Sink()).ok());
  ASSERT_TRUE(consumer.WaitFor(100));
  const std::vector<size_t> behind = consumer.Calls();
  size_t pushed = 0;
  for (size_t n : behind) pushed += n;
  EXPECT_EQ(pushed, 100u);
  EXPECT_LE(behind.size(), 4u) << "one call per partition instead of per round";
  EXPECT_GT(behind.front(), 1u);
  // Live: a record produced while the consumer waits is one push in one call.
  Produce(R"([{"id":"k7","data":2}])");
  ASSERT_TRUE(consumer.WaitFor(101));
  const std::vector<size_t> live = consumer.Calls();
  ASSERT_EQ(live.size(), behind.size() + 1);
  EXPECT_EQ(live.back(), 1u);
  const auto records = consumer.Records();
  EXPECT_EQ(records.back().key, "k7");
  EXPECT_EQ(records.back().offset, 1u);
}

TEST_F(SubscriptionManagerTest, RecordsArePushedInOffsetOrderPerPartitionUpToTheDemand) {
  Produce(R"([{"id":"a","data":1},{"id":"b","data":2},{"id":"a","data":3}])");
  const SubscriptionId id = Create(60'000);
  Consumer consumer;
  auto demand = manager_->Take(id, "amount", ConsumerId(1), 2, consumer.Sink());
  ASSERT_TRUE(demand.ok()) << demand.status().ToString();
  ASSERT_TRUE(consumer.WaitFor(2));
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(consumer.Records().size(), 2u);  // the demand was 2

  ASSERT_TRUE(manager_->Take(id, "amount", ConsumerId(1), 10, consumer.Sink()).ok());
  ASSERT_TRUE(consumer.WaitFor(3));
  Produce(R"({"id":"a","data":4})");  // a commit after the take is pushed as it lands
  ASSERT_TRUE(consumer.WaitFor(4));
  std::vector<uint64_t> a_offsets;
  for (const auto& got : consumer.Records()) {
    EXPECT_FALSE(got.redelivered);
    if (got.key == "a") a_offsets.push_back(got.offset);
  }
  EXPECT_EQ(a_offsets, (std::vector<uint64_t>{0, 1, 2}));
}

TEST_F(SubscriptionManagerTest, UnacknowledgedRecordsAreRedeliveredAfterTheVisibilityTimeout) {
  Produce(R"([{"id":"a","data":1},{"id":"a","data":2}])");
  const SubscriptionId id = Create(100);
  Consumer consumer;
  ASSERT_TRUE(manager_->Take(id, "amount", ConsumerId(1), 10, consumer.Sink()).ok());
  ASSERT_TRUE(consumer.WaitFor(2));
  std::promise<Status> acked;
  manager_->Acknowledge(id, "amount", {OffsetRange{"a", 0, 1}},
                        [&](Status s, std::vector<OffsetRange>) { acked.set_value(s); });
  ASSERT_TRUE(acked.get_future().get().ok());

  ASSERT_TRUE(consumer.WaitFor(3, 3s));  // offset 1 again, after 100 ms
  const auto records = consumer.Records();
  EXPECT_EQ(records[2].key, "a");
  EXPECT_EQ(records[2].offset, 1u);
  EXPECT_TRUE(records[2].redelivered);
}

TEST_F(SubscriptionManagerTest, CompetingConsumersEachGetARecordOnlyOnce) {
  std::string many = "[";
  for (int i = 0; i < 40; ++i) {
    if (i > 0) many += ",";
    many += R"({"id":"k)" + std::to_string(i % 8) + R"(","data":)" + std::to_string(i) + "}";
  }
  many += "]";
  Produce(many);
  const SubscriptionId id = Create(60'000);
  Consumer one;
  Consumer two;
  ASSERT_TRUE(manager_->Take(id, "amount", ConsumerId(1), 20, one.Sink()).ok());
  ASSERT_TRUE(manager_->Take(id, "amount", ConsumerId(2), 20, two.Sink()).ok());
  ASSERT_TRUE(one.WaitFor(20));
  ASSERT_TRUE(two.WaitFor(20));
  std::set<std::pair<std::string, uint64_t>> seen;
  for (auto* consumer : {&one, &two}) {
    for (const auto& got : consumer->Records()) {
      EXPECT_TRUE(seen.emplace(got.key, got.offset).second) << got.key << "@" << got.offset;
    }
  }
  EXPECT_EQ(seen.size(), 40u);
}

TEST_F(SubscriptionManagerTest, AClosedConsumersRecordsGoToAnotherConsumer) {
  Produce(R"([{"id":"a","data":1},{"id":"b","data":2}])");
  const SubscriptionId id = Create(60'000);
  Consumer leaving;
  ASSERT_TRUE(manager_->Take(id, "amount", ConsumerId(1), 10, leaving.Sink()).ok());
  ASSERT_TRUE(leaving.WaitFor(2));
  manager_->RemoveConsumer(ConsumerId(1));
  Consumer staying;
  ASSERT_TRUE(manager_->Take(id, "amount", ConsumerId(2), 10, staying.Sink()).ok());
  ASSERT_TRUE(staying.WaitFor(2));  // long before the 60 s timeout
  for (const auto& got : staying.Records()) EXPECT_TRUE(got.redelivered);
}

TEST_F(SubscriptionManagerTest, UnknownSubscriptionsAndBadRangesAreErrors) {
  Consumer consumer;
  EXPECT_EQ(manager_->Take(SubscriptionId(std::string(16, 'x')), "amount", ConsumerId(1), 1,
                           consumer.Sink())
                .status()
                .code(),
            StatusCode::kNotFound);
  Produce(R"({"id":"a","data":1})");
  const SubscriptionId id = Create(60'000);
  std::promise<std::pair<Status, std::vector<OffsetRange>>> acked;
  manager_->Acknowledge(id, "amount", {OffsetRange{"a", 0, 5}},
                        [&](Status s, std::vector<OffsetRange> failed) {
                          acked.set_value({s, failed});
                        });
  auto [status, failed] = acked.get_future().get();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);  // offsets 1..4 do not exist
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].key, "a");
}

}  // namespace
}  // namespace higgins::subscription
