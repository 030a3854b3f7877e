#include "common/all_of.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace higgins {
namespace {

TEST(AllOfTest, CallsDoneOnceAfterTheLastCompletion) {
  int calls = 0;
  Status seen = Status::IOError("not called");
  auto one = AllOf(3, [&](Status s) {
    ++calls;
    seen = std::move(s);
  });
  one(Status::OK());
  one(Status::OK());
  EXPECT_EQ(calls, 0);
  one(Status::OK());
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(seen.ok());
}

TEST(AllOfTest, ReportsTheFirstErrorAmongTheCompletions) {
  Status seen;
  auto one = AllOf(3, [&](Status s) { seen = std::move(s); });
  one(Status::OK());
  one(Status::NotFound("first"));
  one(Status::IOError("second"));
  EXPECT_EQ(seen.code(), StatusCode::kNotFound);
  EXPECT_EQ(seen.message(), "first");
}

TEST(AllOfTest, ExtraCompletionsAreIgnored) {
  int calls = 0;
  auto one = AllOf(1, [&](Status) { ++calls; });
  one(Status::OK());
  one(Status::IOError("late"));
  EXPECT_EQ(calls, 1);
}

TEST(AllOfTest, CompletionsFromManyThreadsFinishOnce) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 1000;
  std::atomic<int> calls{0};
  auto one = AllOf(kThreads * kPerThread, [&](Status s) {
    EXPECT_TRUE(s.ok());
    ++calls;
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kPerThread; ++i) one(Status::OK());
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(calls.load(), 1);
}

}  // namespace
}  // namespace higgins
