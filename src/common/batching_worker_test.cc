#include "common/batching_worker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <memory>
#include <string>
#include <vector>

namespace higgins {
namespace {

using namespace std::chrono_literals;

TEST(BatchingWorkerTest, RunsEveryItemInPostingOrder) {
  std::vector<int> seen;  // only the worker writes it until Stop
  BatchingWorker<int> worker([&](std::vector<int>& batch) {
    seen.insert(seen.end(), batch.begin(), batch.end());
    return BatchingWorker<int>::NextRun();
  });
  for (int i = 0; i < 1000; ++i) {
    int item = i;
    ASSERT_TRUE(worker.Post(item));
  }
  worker.Stop();
  ASSERT_EQ(seen.size(), 1000u);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(seen[static_cast<size_t>(i)], i);
}

TEST(BatchingWorkerTest, ItemsPostedDuringARunArriveTogetherInTheNextRun) {
  std::promise<void> entered;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::vector<size_t> sizes;
  BatchingWorker<int> worker([&](std::vector<int>& batch) {
    if (sizes.empty()) {
      entered.set_value();
      released.wait();
    }
    sizes.push_back(batch.size());
    return BatchingWorker<int>::NextRun();
  });
  int first = 0;
  ASSERT_TRUE(worker.Post(first));
  entered.get_future().wait();
  for (int i = 1; i <= 5; ++i) {
    int item = i;
    ASSERT_TRUE(worker.Post(item));
  }
  release.set_value();
  worker.Stop();
  EXPECT_EQ(sizes, (std::vector<size_t>{1, 5}));
}

TEST(BatchingWorkerTest, StopRunsTheItemsStillQueued) {
  std::promise<void> entered;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> handled{0};
  auto worker = std::make_unique<BatchingWorker<int>>([&](std::vector<int>& batch) {
    if (handled == 0) {
      entered.set_value();
      released.wait();
    }
    handled += static_cast<int>(batch.size());
    return BatchingWorker<int>::NextRun();
  });
  int item = 1;
  ASSERT_TRUE(worker->Post(item));
  entered.get_future().wait();
  for (int i = 0; i < 3; ++i) {
    int more = i;
    ASSERT_TRUE(worker->Post(more));
  }
  std::thread stopper([&] { worker->Stop(); });
  release.set_value();
  stopper.join();
  EXPECT_EQ(handled, 4);
}

TEST(BatchingWorkerTest, PostAfterStopIsRefusedAndLeavesTheItemWithTheCaller) {
  int runs = 0;
  BatchingWorker<std::string> worker([&](std::vector<std::string>&) {
    ++runs;
    return BatchingWorker<std::string>::NextRun();
  });
  worker.Stop();
  std::string item = "kept";
  EXPECT_FALSE(worker.Post(item));
  EXPECT_EQ(item, "kept");
  worker.Wake();
  worker.Stop();  // idempotent
  EXPECT_EQ(runs, 0);
}

TEST(BatchingWorkerTest, WakeRunsTheHandlerWithAnEmptyBatch) {
  std::promise<size_t> ran;
  bool once = false;
  BatchingWorker<> worker([&](std::vector<std::monostate>& batch) {
    if (!once) {
      once = true;
      ran.set_value(batch.size());
    }
    return BatchingWorker<>::NextRun();
  });
  worker.Wake();
  EXPECT_EQ(ran.get_future().get(), 0u);
}

TEST(BatchingWorkerTest, RunsAgainAtTheDeadlineTheHandlerReturns) {
  std::atomic<int> runs{0};
  std::promise<void> third;
  BatchingWorker<> worker([&](std::vector<std::monostate>&) {
    if (++runs == 3) third.set_value();
    return runs < 3 ? BatchingWorker<>::NextRun(BatchingWorker<>::Clock::now() + 5ms)
                    : BatchingWorker<>::NextRun();
  });
  worker.Wake();
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(third.get_future().wait_for(10s), std::future_status::ready);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 10ms);
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(runs, 3);  // nullopt: no further run without a post or wake
}

TEST(BatchingWorkerTest, APostBeforeTheDeadlineRunsAtOnce) {
  std::atomic<int> runs{0};
  std::promise<void> second;
  BatchingWorker<int> worker([&](std::vector<int>&) {
    if (++runs == 2) second.set_value();
    return BatchingWorker<int>::NextRun(BatchingWorker<int>::Clock::now() + 1h);
  });
  worker.Wake();
  while (runs == 0) std::this_thread::yield();
  int item = 7;
  ASSERT_TRUE(worker.Post(item));
  EXPECT_EQ(second.get_future().wait_for(10s), std::future_status::ready);
}

TEST(BatchingWorkerTest, StopDoesNotWaitForAPendingDeadline) {
  std::atomic<int> runs{0};
  auto worker = std::make_unique<BatchingWorker<>>([&](std::vector<std::monostate>&) {
    ++runs;
    return BatchingWorker<>::NextRun(BatchingWorker<>::Clock::now() + 1h);
  });
  worker->Wake();
  while (runs == 0) std::this_thread::yield();
  const auto start = std::chrono::steady_clock::now();
  worker.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_EQ(runs, 1);
}

TEST(BatchingWorkerTest, PostsFromManyThreadsAllArrive) {
  std::atomic<int> total{0};
  BatchingWorker<int> worker([&](std::vector<int>& batch) {
    for (int v : batch) total += v;
    return BatchingWorker<int>::NextRun();
  });
  std::vector<std::thread> posters;
  for (int t = 0; t < 4; ++t) {
    posters.emplace_back([&] {
      for (int i = 0; i < 500; ++i) {
        int one = 1;
        EXPECT_TRUE(worker.Post(one));
      }
    });
  }
  for (auto& p : posters) p.join();
  worker.Stop();
  EXPECT_EQ(total, 2000);
}

}  // namespace
}  // namespace higgins
