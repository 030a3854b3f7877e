#include "derived/derived_engine.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "udf/testing/fake_engine.h"

namespace higgins::derived {
namespace {

using namespace std::chrono_literals;
using Clock = DerivedEngine::Clock;

// A partition count per key that the test advances by hand, standing in for a stream index.
struct Counts {
  std::mutex mu;
  std::map<std::string, uint64_t> count;
  uint64_t Get(const std::string& key) {
    std::lock_guard lock(mu);
    return count[key];
  }
  void Set(const std::string& key, uint64_t n) {
    std::lock_guard lock(mu);
    count[key] = n;
  }
};

class DerivedEngineWaitTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(engine_.Start().ok()); }

  // Waits until `key` of stream "s" has `n` records; the outcome lands in the returned future.
  std::future<Status> WaitFor(const std::string& key, uint64_t n,
                              std::chrono::milliseconds timeout = 10s) {
    auto promise = std::make_shared<std::promise<Status>>();
    auto future = promise->get_future();
    std::vector<DerivedEngine::Watch> watches;
    watches.push_back({"s", key, n, [this, key] { return counts_.Get(key); }});
    engine_.WaitUntil(
        std::move(watches), Clock::now() + timeout, [key] { return "key " + key + " is behind"; },
        [promise](Status s) { promise->set_value(std::move(s)); });
    return future;
  }

  Counts counts_;  // outlives the engine, whose timer reads it
  udf::FakeEngine fake_;
  DerivedEngine engine_{&fake_, DerivedEngine::Options{1, 16}};
};

TEST_F(DerivedEngineWaitTest, AlreadyCaughtUpAnswersAtOnce) {
  counts_.Set("k", 3);
  auto done = WaitFor("k", 3);
  ASSERT_EQ(done.wait_for(0s), std::future_status::ready);
  EXPECT_TRUE(done.get().ok());
  EXPECT_EQ(engine_.PendingWaits(), 0u);
}

TEST_F(DerivedEngineWaitTest, OnlyCommitsToTheWatchedPartitionWakeAWait) {
  auto done = WaitFor("k", 1);
  counts_.Set("k", 1);
  // A commit to another stream, or to another key of the stream, does not re-check the wait
  // (the need is met by now, so a re-check would answer it).
  engine_.OnCommit("other", {"k"});
  engine_.OnCommit("s", {"j", "i"});
  EXPECT_EQ(done.wait_for(20ms), std::future_status::timeout);
  EXPECT_EQ(engine_.PendingWaits(), 1u);
  engine_.OnCommit("s", {"j", "k", "k"});
  ASSERT_EQ(done.wait_for(1s), std::future_status::ready);
  EXPECT_TRUE(done.get().ok());
  EXPECT_EQ(engine_.PendingWaits(), 0u);
}

TEST_F(DerivedEngineWaitTest, ManyWaitsEachAnsweredByItsOwnKey) {
  constexpr int kKeys = 10'000;
  std::vector<std::future<Status>> done;
  for (int k = 0; k < kKeys; ++k) done.push_back(WaitFor("k" + std::to_string(k), 2));
  EXPECT_EQ(engine_.PendingWaits(), size_t{kKeys});
  // Half the keys reach 2 records, the other half only 1.
  for (int k = 0; k < kKeys; ++k) {
    const std::string key = "k" + std::to_string(k);
    counts_.Set(key, k % 2 == 0 ? 2 : 1);
    engine_.OnCommit("s", {key});
  }
  for (int k = 0; k < kKeys; ++k) {
    if (k % 2 == 0) {
      ASSERT_EQ(done[k].wait_for(1s), std::future_status::ready) << k;
      EXPECT_TRUE(done[k].get().ok());
    } else {
      EXPECT_EQ(done[k].wait_for(0s), std::future_status::timeout) << k;
    }
  }
  EXPECT_EQ(engine_.PendingWaits(), size_t{kKeys / 2});
  engine_.Stop();
  for (int k = 1; k < kKeys; k += 2) {
    Status s = done[k].get();
    EXPECT_EQ(s.code(), StatusCode::kIOError) << s.ToString();
  }
}

TEST_F(DerivedEngineWaitTest, DeadlinesExpireInOrderWithTheirDescription) {
  auto late = WaitFor("b", 1, 400ms);
  auto early = WaitFor("a", 1, 50ms);
  ASSERT_EQ(early.wait_for(2s), std::future_status::ready);
  EXPECT_EQ(late.wait_for(0s), std::future_status::timeout);
  Status s = early.get();
  EXPECT_EQ(s.code(), StatusCode::kDeadlineExceeded);
  EXPECT_NE(s.message().find("key a is behind"), std::string::npos) << s.ToString();
  ASSERT_EQ(late.wait_for(2s), std::future_status::ready);
  EXPECT_EQ(late.get().code(), StatusCode::kDeadlineExceeded);
  EXPECT_EQ(engine_.PendingWaits(), 0u);
  // The expired waits left nothing behind: a new wait on the same key works.
  auto again = WaitFor("a", 2);
  counts_.Set("a", 2);
  engine_.OnCommit("s", {"a"});
  ASSERT_EQ(again.wait_for(1s), std::future_status::ready);
  EXPECT_TRUE(again.get().ok());
}

TEST_F(DerivedEngineWaitTest, ManyWaitsOnOneKeyAreAnsweredInCountOrder) {
  // 10,000 produces to one key waiting for counts 1..10,000: each commit answers exactly the
  // waits it satisfies (the index is ordered by count, so none is re-checked in vain).
  constexpr uint64_t kWaits = 10'000;
  std::vector<std::future<Status>> done;
  for (uint64_t n = 1; n <= kWaits; ++n) done.push_back(WaitFor("hot", n));
  for (uint64_t have = 1000; have <= kWaits; have += 1000) {
    counts_.Set("hot", have);
    engine_.OnCommit("s", {"hot"});
    EXPECT_EQ(engine_.PendingWaits(), kWaits - have);
    EXPECT_EQ(done[have - 1].wait_for(1s), std::future_status::ready);
    if (have < kWaits) {
      EXPECT_EQ(done[have].wait_for(0s), std::future_status::timeout);
    }
  }
  for (auto& d : done) EXPECT_TRUE(d.get().ok());
}

TEST_F(DerivedEngineWaitTest, AWaitOnSeveralPartitionsNeedsThemAll) {
  auto promise = std::make_shared<std::promise<Status>>();
  auto done = promise->get_future();
  std::vector<DerivedEngine::Watch> watches;
  for (const char* stream : {"s", "t"}) {
    for (const char* key : {"x", "y"}) {
      const std::string counter = std::string(stream) + "/" + key;
      watches.push_back({stream, key, 1, [this, counter] { return counts_.Get(counter); }});
    }
  }
  engine_.WaitUntil(
      std::move(watches), Clock::now() + 10s, [] { return std::string(); },
      [promise](Status s) { promise->set_value(std::move(s)); });
  for (const char* stream : {"s", "t"}) {
    for (const char* key : {"x", "y"}) {
      EXPECT_EQ(done.wait_for(0s), std::future_status::timeout) << stream << key;
      counts_.Set(std::string(stream) + "/" + key, 1);
      engine_.OnCommit(stream, {key});
    }
  }
  ASSERT_EQ(done.wait_for(1s), std::future_status::ready);
  EXPECT_TRUE(done.get().ok());
  EXPECT_EQ(engine_.PendingWaits(), 0u);
}

}  // namespace
}  // namespace higgins::derived
