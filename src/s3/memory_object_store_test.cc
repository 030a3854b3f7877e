// MemoryObjectStore: the fake behind ObjectStore that the storage tests run on.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "s3/object_store.h"
#include "s3/s3_test_util.h"

namespace higgins::s3 {
namespace {

TEST(MemoryObjectStoreTest, PutThenGetRanges) {
  MemoryObjectStore store;
  ASSERT_TRUE(store.Put("a/1", Bytes("hello world")).ok());
  auto whole = store.Get("a/1", 0, 11);
  ASSERT_TRUE(whole.ok()) << whole.status().ToString();
  EXPECT_EQ(whole->view(), "hello world");
  auto middle = store.Get("a/1", 6, 5);
  ASSERT_TRUE(middle.ok());
  EXPECT_EQ(middle->view(), "world");
  auto empty_at_end = store.Get("a/1", 11, 0);
  ASSERT_TRUE(empty_at_end.ok());
  EXPECT_TRUE(empty_at_end->empty());
}

TEST(MemoryObjectStoreTest, PutReplaces) {
  MemoryObjectStore store;
  ASSERT_TRUE(store.Put("k", Bytes("first")).ok());
  ASSERT_TRUE(store.Put("k", Bytes("2nd")).ok());
  auto got = store.Get("k", 0, 3);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->view(), "2nd");
}

TEST(MemoryObjectStoreTest, MissingObjectIsNotFound) {
  MemoryObjectStore store;
  EXPECT_EQ(store.Get("nope", 0, 1).status().code(), StatusCode::kNotFound);
}

TEST(MemoryObjectStoreTest, RangeOutsideObjectIsOutOfRange) {
  MemoryObjectStore store;
  ASSERT_TRUE(store.Put("k", Bytes("0123456789")).ok());
  EXPECT_EQ(store.Get("k", 5, 6).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(store.Get("k", 11, 0).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(store.Get("k", UINT64_MAX, 2).status().code(), StatusCode::kOutOfRange);
}

TEST(MemoryObjectStoreTest, ListIsByPrefixInKeyOrder) {
  MemoryObjectStore store;
  for (const char* key : {"b/2", "a/9", "b/10", "b/1", "c"}) {
    ASSERT_TRUE(store.Put(key, Bytes(key)).ok());
  }
  auto listed = store.List("b/");
  ASSERT_TRUE(listed.ok());
  const std::vector<ObjectInfo> expected = {{"b/1", 3}, {"b/10", 4}, {"b/2", 3}};
  EXPECT_EQ(*listed, expected);
  auto all = store.List("");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 5u);
}

TEST(MemoryObjectStoreTest, DeleteOfMissingObjectIsOk) {
  MemoryObjectStore store;
  ASSERT_TRUE(store.Put("k", Bytes("x")).ok());
  EXPECT_TRUE(store.Delete("k").ok());
  EXPECT_TRUE(store.Delete("k").ok());
  EXPECT_EQ(store.Get("k", 0, 1).status().code(), StatusCode::kNotFound);
}

TEST(MemoryObjectStoreTest, FailingStoreAnswersIOErrorUntilCleared) {
  MemoryObjectStore store;
  ASSERT_TRUE(store.Put("k", Bytes("x")).ok());
  store.set_failing(true);
  EXPECT_EQ(store.Put("k", Bytes("y")).code(), StatusCode::kIOError);
  EXPECT_EQ(store.Get("k", 0, 1).status().code(), StatusCode::kIOError);
  EXPECT_EQ(store.List("").status().code(), StatusCode::kIOError);
  EXPECT_EQ(store.Delete("k").code(), StatusCode::kIOError);
  store.set_failing(false);
  auto got = store.Get("k", 0, 1);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->view(), "x");  // the failed Put changed nothing
}

TEST(MemoryObjectStoreTest, GetsCountsOnlyCallsThatReachedTheStore) {
  MemoryObjectStore store;
  ASSERT_TRUE(store.Put("k", Bytes("x")).ok());
  (void)store.Get("k", 0, 1);
  (void)store.Get("missing", 0, 1);
  store.set_failing(true);
  (void)store.Get("k", 0, 1);
  EXPECT_EQ(store.gets(), 2u);
}

TEST(MemoryObjectStoreTest, ConcurrentPutsAndGets) {
  MemoryObjectStore store;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&store, t] {
      for (int i = 0; i < 200; ++i) {
        const std::string key = "t" + std::to_string(t) + "/" + std::to_string(i);
        ASSERT_TRUE(store.Put(key, Bytes(key)).ok());
        auto got = store.Get(key, 0, key.size());
        ASSERT_TRUE(got.ok());
        EXPECT_EQ(got->view(), key);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  auto listed = store.List("");
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->size(), 800u);
  EXPECT_EQ(store.gets(), 800u);
}

}  // namespace
}  // namespace higgins::s3
