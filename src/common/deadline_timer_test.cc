#include "common/deadline_timer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace higgins {
namespace {

using namespace std::chrono_literals;
using Clock = DeadlineTimer::Clock;

TEST(DeadlineTimerTest, RunsCallbacksInDeadlineOrder) {
  std::mutex mu;
  std::vector<int> order;
  std::promise<void> last;
  DeadlineTimer timer;
  const auto now = Clock::now();
  auto note = [&](int i) {
    std::lock_guard lock(mu);
    order.push_back(i);
    if (order.size() == 3) last.set_value();
  };
  timer.Schedule(now + 30ms, [&] { note(3); });
  timer.Schedule(now + 10ms, [&] { note(1); });
  timer.Schedule(now + 20ms, [&] { note(2); });
  ASSERT_EQ(last.get_future().wait_for(10s), std::future_status::ready);
  EXPECT_GE(Clock::now(), now + 30ms);
  std::lock_guard lock(mu);
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
}

TEST(DeadlineTimerTest, AnEarlierDeadlineScheduledLaterRunsFirst) {
  std::promise<void> early;
  std::atomic<bool> late_ran{false};
  DeadlineTimer timer;
  timer.Schedule(Clock::now() + 1h, [&] { late_ran = true; });
  timer.Schedule(Clock::now() + 1ms, [&] { early.set_value(); });
  EXPECT_EQ(early.get_future().wait_for(10s), std::future_status::ready);
  EXPECT_FALSE(late_ran);
  EXPECT_EQ(timer.Pending(), 1u);
}

TEST(DeadlineTimerTest, ArmingAndCancellingLaterDeadlinesDoesNotWakeTheThread) {
  // The watchdog's pattern: one deadline armed and cancelled per call, each a little later.
  DeadlineTimer timer;
  const auto base = Clock::now() + 1h;
  timer.Cancel(timer.Schedule(base, [] {}));
  std::this_thread::sleep_for(50ms);  // the thread now sleeps until `base`
  const uint64_t before = timer.Wakeups();
  for (int i = 1; i <= 1000; ++i) {
    timer.Cancel(timer.Schedule(base + std::chrono::microseconds(i), [] {}));
  }
  // Spurious wake-ups are allowed by condition_variable; one per call is the bug.
  EXPECT_LE(timer.Wakeups() - before, 3u);
  // An earlier deadline still wakes it at once.
  std::promise<void> early;
  timer.Schedule(Clock::now() + 1ms, [&] { early.set_value(); });
  EXPECT_EQ(early.get_future().wait_for(10s), std::future_status::ready);
  EXPECT_EQ(timer.Pending(), 0u);
}

TEST(DeadlineTimerTest, APastDeadlineRunsAtOnce) {
  std::promise<void> ran;
  DeadlineTimer timer;
  timer.Schedule(Clock::now() - 1s, [&] { ran.set_value(); });
  EXPECT_EQ(ran.get_future().wait_for(10s), std::future_status::ready);
}

TEST(DeadlineTimerTest, CancelledCallbacksNeverRun) {
  std::atomic<bool> ran{false};
  DeadlineTimer timer;
  const DeadlineTimer::Id id = timer.Schedule(Clock::now() + 20ms, [&] { ran = true; });
  EXPECT_TRUE(timer.Cancel(id));
  EXPECT_FALSE(timer.Cancel(id));
  EXPECT_EQ(timer.Pending(), 0u);
  std::this_thread::sleep_for(40ms);
  EXPECT_FALSE(ran);
}

TEST(DeadlineTimerTest, CancelOfACallbackThatRanReturnsFalse) {
  std::promise<void> ran;
  DeadlineTimer timer;
  const DeadlineTimer::Id id = timer.Schedule(Clock::now(), [&] { ran.set_value(); });
  ran.get_future().wait();
  EXPECT_FALSE(timer.Cancel(id));
  EXPECT_FALSE(timer.Cancel(DeadlineTimer::kNone));
}

TEST(DeadlineTimerTest, CancelDoesNotWaitForARunningCallback) {
  std::promise<void> entered;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  DeadlineTimer timer;
  const DeadlineTimer::Id id = timer.Schedule(Clock::now(), [&] {
    entered.set_value();
    released.wait();
  });
  entered.get_future().wait();
  EXPECT_FALSE(timer.Cancel(id));  // returns while the callback still runs
  release.set_value();
}

TEST(DeadlineTimerTest, StopDropsPendingCallbacksAndRefusesNewOnes) {
  std::atomic<int> ran{0};
  auto timer = std::make_unique<DeadlineTimer>();
  timer->Schedule(Clock::now() + 1h, [&] { ++ran; });
  auto token = std::make_shared<int>(0);
  timer->Schedule(Clock::now() + 1h, [&ran, token] { ++ran; });
  const auto start = Clock::now();
  timer->Stop();
  EXPECT_LT(Clock::now() - start, 5s);
  EXPECT_EQ(token.use_count(), 1);  // the dropped callback's captures were released
  EXPECT_EQ(timer->Schedule(Clock::now(), [&] { ++ran; }), DeadlineTimer::kNone);
  timer.reset();
  EXPECT_EQ(ran, 0);
}

TEST(DeadlineTimerTest, StopLetsARunningCallbackFinish) {
  std::promise<void> entered;
  std::atomic<bool> finished{false};
  auto timer = std::make_unique<DeadlineTimer>();
  timer->Schedule(Clock::now(), [&] {
    entered.set_value();
    std::this_thread::sleep_for(20ms);
    finished = true;
  });
  entered.get_future().wait();
  timer.reset();
  EXPECT_TRUE(finished);
}

TEST(DeadlineTimerTest, ACallbackMayScheduleAndCancel) {
  std::promise<void> second;
  DeadlineTimer timer;
  timer.Schedule(Clock::now(), [&] {
    const DeadlineTimer::Id never = timer.Schedule(Clock::now() + 1h, [] {});
    timer.Cancel(never);
    timer.Schedule(Clock::now(), [&] { second.set_value(); });
  });
  EXPECT_EQ(second.get_future().wait_for(10s), std::future_status::ready);
}

}  // namespace
}  // namespace higgins
