// Committed offsets: durable across reopen, torn tails cut, damage refused, rewrites.
#include "server/kafka/offset_store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

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
