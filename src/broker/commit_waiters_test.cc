#include "broker/commit_waiters.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace higgins::broker {
namespace {

TEST(CommitWaitersTest, NotifyWakesTheStreamsWaitsOnce) {
  CommitWaiters waiters;
  std::vector<std::string> woken;
  waiters.Add("a", [&] { woken.push_back("a1"); });
  waiters.Add("a", [&] { woken.push_back("a2"); });
  waiters.Add("b", [&] { woken.push_back("b1"); });
  EXPECT_EQ(waiters.size(), 3U);
  waiters.Notify("a");
  EXPECT_EQ(woken, (std::vector<std::string>{"a1", "a2"}));
  EXPECT_EQ(waiters.size(), 1U);
  waiters.Notify("a");  // one-shot: nothing left for a
  EXPECT_EQ(woken.size(), 2U);
  waiters.Notify("c");
  waiters.Notify("b");
  EXPECT_EQ(woken, (std::vector<std::string>{"a1", "a2", "b1"}));
  EXPECT_EQ(waiters.size(), 0U);
}

TEST(CommitWaitersTest, CancelledWaitsAreNotWoken) {
  CommitWaiters waiters;
  int woken = 0;
  const uint64_t first = waiters.Add("s", [&] { woken += 1; });
  const uint64_t second = waiters.Add("s", [&] { woken += 10; });
  EXPECT_NE(first, second);
  EXPECT_NE(first, 0U);
  waiters.Cancel("s", first);
  waiters.Cancel("s", first);   // twice: nothing
  waiters.Cancel("t", second);  // another stream's: nothing
  EXPECT_EQ(waiters.size(), 1U);
  waiters.Notify("s");
  EXPECT_EQ(woken, 10);
  waiters.Cancel("s", second);  // after its wake: nothing
  EXPECT_EQ(waiters.size(), 0U);
}

TEST(CommitWaitersTest, AWakeMayRegisterAgain) {
  CommitWaiters waiters;
  int woken = 0;
  std::function<void()> again = [&] {
    ++woken;
    if (woken < 3) waiters.Add("s", again);
  };
  waiters.Add("s", again);
  waiters.Notify("s");
  waiters.Notify("s");
  waiters.Notify("s");
  waiters.Notify("s");
  EXPECT_EQ(woken, 3);
}

}  // namespace
}  // namespace higgins::broker
