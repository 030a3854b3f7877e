#include "common/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace higgins {
namespace {

TEST(ThreadPoolTest, RunsEveryTaskPosted) {
  auto pool = ThreadPool::Start(3);
  ASSERT_TRUE(pool.ok());
  std::atomic<int> ran{0};
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE((*pool)->Post([&](size_t) { ++ran; }));
  (*pool)->Stop();
  EXPECT_EQ(ran, 1000);
}

TEST(ThreadPoolTest, TasksRunConcurrently) {
  auto pool = ThreadPool::Start(2);
  ASSERT_TRUE(pool.ok());
  std::promise<void> both;
  std::atomic<int> arrived{0};
  std::shared_future<void> go = both.get_future().share();
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE((*pool)->Post([&](size_t) {
      if (++arrived == 2) both.set_value();
      go.wait();  // only returns once both tasks run at the same time
    }));
  }
  (*pool)->Stop();
  EXPECT_EQ(arrived, 2);
}

TEST(ThreadPoolTest, HooksRunOnTheThreadOfTheirIndex) {
  std::mutex mu;
  std::vector<std::thread::id> started(3);
  std::vector<std::thread::id> stopped(3);
  std::set<std::pair<size_t, std::thread::id>> task_threads;
  ThreadPool::Hooks hooks;
  hooks.start = [&](size_t i) {
    std::lock_guard lock(mu);
    started[i] = std::this_thread::get_id();
    return Status::OK();
  };
  hooks.stop = [&](size_t i) {
    std::lock_guard lock(mu);
    stopped[i] = std::this_thread::get_id();
  };
  auto pool = ThreadPool::Start(3, hooks);
  ASSERT_TRUE(pool.ok());
  EXPECT_EQ((*pool)->size(), 3u);
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE((*pool)->Post([&](size_t t) {
      std::lock_guard lock(mu);
      task_threads.emplace(t, std::this_thread::get_id());
    }));
  }
  pool->reset();
  std::set<std::thread::id> distinct(started.begin(), started.end());
  EXPECT_EQ(distinct.size(), 3u);
  EXPECT_EQ(started, stopped);
  for (const auto& [index, id] : task_threads) EXPECT_EQ(id, started[index]);
}

TEST(ThreadPoolTest, AFailedStartHookFailsStartAndStopsTheThreadsStarted) {
  std::atomic<int> stops{0};
  ThreadPool::Hooks hooks;
  hooks.start = [](size_t i) { return i == 2 ? Status::IOError("no sandbox") : Status::OK(); };
  hooks.stop = [&](size_t) { ++stops; };
  auto pool = ThreadPool::Start(4, hooks);
  EXPECT_EQ(pool.status(), Status::IOError("no sandbox"));
  EXPECT_EQ(stops, 2);  // threads 0 and 1; thread 2's start failed, thread 3 never began
}

TEST(ThreadPoolTest, StopRunsTheQueuedTasksAndRefusesLaterOnes) {
  auto pool = ThreadPool::Start(1);
  ASSERT_TRUE(pool.ok());
  std::promise<void> entered;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> ran{0};
  ASSERT_TRUE((*pool)->Post([&](size_t) {
    entered.set_value();
    released.wait();
    ++ran;
  }));
  entered.get_future().wait();
  for (int i = 0; i < 5; ++i) ASSERT_TRUE((*pool)->Post([&](size_t) { ++ran; }));
  std::thread stopper([&] { (*pool)->Stop(); });
  while ((*pool)->Post([&](size_t) { ran += 100; })) {
    std::this_thread::yield();  // until Stop has begun
  }
  release.set_value();
  stopper.join();
  EXPECT_EQ(ran.load() % 100, 6);  // the first and the five queued (each refused one never ran)
  EXPECT_FALSE((*pool)->Post([&](size_t) { ++ran; }));
  (*pool)->Stop();  // idempotent
}

}  // namespace
}  // namespace higgins
