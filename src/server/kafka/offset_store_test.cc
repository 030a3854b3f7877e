// Committed offsets: durable across reopen, torn tails cut, damage refused, rewrites; the
// committer that stores them off the network threads.
#include "server/kafka/offset_store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "server/kafka/offset_committer.h"

namespace higgins::server::kafka {
namespace {

class OffsetStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/higgins-offsets-XXXXXX";
    dir_ = mkdtemp(pattern);
    path_ = dir_ + "/kafka/offsets.log";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
  std::string path_;
};

TEST_F(OffsetStoreTest, CommitsSurviveReopenAndTheLatestWins) {
  {
    auto store = OffsetStore::Open(path_);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    ASSERT_TRUE(
        (*store)->Store("g", {{"events", 0, {10, 0, "m"}}, {"events", 1, {5, -1, {}}}}).ok());
    ASSERT_TRUE((*store)->Store("g", {{"events", 0, {12, 0, {}}}}).ok());
    ASSERT_TRUE((*store)->Store("h", {{"other", 0, {1, -1, {}}}}).ok());
  }
  auto store = OffsetStore::Open(path_);
  ASSERT_TRUE(store.ok());
  auto c = (*store)->Fetch("g", "events", 0);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->offset, 12);
  EXPECT_EQ(c->metadata, std::nullopt);
  EXPECT_EQ((*store)->Fetch("g", "events", 1)->offset, 5);
  EXPECT_FALSE((*store)->Fetch("g", "events", 2));
  EXPECT_FALSE((*store)->Fetch("h", "events", 0));
  EXPECT_EQ((*store)->Groups(), (std::vector<std::string>{"g", "h"}));
  auto all = (*store)->FetchAll("g");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].partition, 0);
  EXPECT_EQ(all[1].committed.offset, 5);
}

TEST_F(OffsetStoreTest, ATornLastRecordIsCutOff) {
  {
    auto store = OffsetStore::Open(path_);
    ASSERT_TRUE((*store)->Store("g", {{"t", 0, {7, -1, {}}}}).ok());
    ASSERT_TRUE((*store)->Store("g", {{"t", 0, {8, -1, {}}}}).ok());
  }
  const auto size = std::filesystem::file_size(path_);
  std::filesystem::resize_file(path_, size - 3);  // the second record, cut mid-write
  auto store = OffsetStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->Fetch("g", "t", 0)->offset, 7);
  ASSERT_TRUE((*store)->Store("g", {{"t", 0, {9, -1, {}}}}).ok());
  auto reopened = OffsetStore::Open(path_);
  EXPECT_EQ((*reopened)->Fetch("g", "t", 0)->offset, 9);
}

TEST_F(OffsetStoreTest, DamageBeforeTheLastRecordIsCorruption) {
  {
    auto store = OffsetStore::Open(path_);
    ASSERT_TRUE((*store)->Store("g", {{"t", 0, {7, -1, {}}}}).ok());
    ASSERT_TRUE((*store)->Store("g", {{"t", 0, {8, -1, {}}}}).ok());
  }
  std::fstream f(path_, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(12);
  f.put('X');
  f.close();
  auto store = OffsetStore::Open(path_);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kCorruption);
  EXPECT_NE(store.status().message().find("fails its CRC, and records follow it"),
            std::string::npos);
}

TEST_F(OffsetStoreTest, ASupersededFileIsRewrittenWithTheLatestOffsets) {
  {
    auto store = OffsetStore::Open(path_);
    const std::string meta(1500, 'm');
    for (int i = 0; i < 1000; ++i) {
      ASSERT_TRUE((*store)->Store("g", {{"t", 0, {i, -1, meta}}}).ok());
    }
    EXPECT_LT((*store)->file_bytes(), uint64_t{1} << 21);  // rewritten on the way
  }
  auto store = OffsetStore::Open(path_);
  EXPECT_EQ((*store)->Fetch("g", "t", 0)->offset, 999);
}

}  // namespace
}  // namespace higgins::server::kafka

namespace higgins::server::kafka {
namespace {

// OffsetCommitter: commits submitted from many threads at once are all stored and answered,
// in fewer writes than requests when they arrive during a write (group commit), and survive a
// reopen.
TEST_F(OffsetStoreTest, CommitterStoresEveryRequestOfManyThreads) {
  constexpr int kThreads = 8;
  constexpr int kCommitsPerThread = 50;
  {
    auto store = OffsetStore::Open(path_);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    std::atomic<int> answered{0};
    std::atomic<int> failed{0};
    {
      OffsetCommitter committer(store->get());
      std::vector<std::thread> threads;
      for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
          for (int i = 0; i < kCommitsPerThread; ++i) {
            std::promise<Status> stored;
            committer.Submit("g" + std::to_string(t), {{"events", 0, {i, -1, {}}}},
                             [&stored](const Status& s) { stored.set_value(s); });
            const Status s = stored.get_future().get();
            (s.ok() ? answered : failed).fetch_add(1);
            // Visible once answered.
            auto c = (*store)->Fetch("g" + std::to_string(t), "events", 0);
            if (!c || c->offset != i) failed.fetch_add(1);
          }
        });
      }
      for (std::thread& thread : threads) thread.join();
    }
    EXPECT_EQ(answered.load(), kThreads * kCommitsPerThread);
    EXPECT_EQ(failed.load(), 0);
  }
  auto store = OffsetStore::Open(path_);
  ASSERT_TRUE(store.ok());
  for (int t = 0; t < kThreads; ++t) {
    auto c = (*store)->Fetch("g" + std::to_string(t), "events", 0);
    ASSERT_TRUE(c) << t;
    EXPECT_EQ(c->offset, kCommitsPerThread - 1);
  }
}

TEST_F(OffsetStoreTest, CommitterAnswersCommitsQueuedWhenDestroyed) {
  auto store = OffsetStore::Open(path_);
  ASSERT_TRUE(store.ok());
  std::vector<Status> outcomes;
  {
    OffsetCommitter committer(store->get());
    for (int i = 0; i < 20; ++i) {
      committer.Submit("g", {{"events", i, {i, -1, {}}}},
                       [&outcomes](const Status& s) { outcomes.push_back(s); });
    }
  }  // the queued flush runs before the destructor returns
  ASSERT_EQ(outcomes.size(), 20u);
  for (const Status& s : outcomes) EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ((*store)->FetchAll("g").size(), 20u);
}

}  // namespace
}  // namespace higgins::server::kafka
