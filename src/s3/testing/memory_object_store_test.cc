// MemoryObjectStore: the fake behind ObjectStore that the storage tests run on.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "s3/testing/memory_object_store.h"
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

TEST(MemoryObjectStoreTest, AMultipartPutLeavesNoUploadBehind) {
  MemoryObjectStore store;
  store.set_multipart_threshold(10, 4);
  ASSERT_TRUE(store.Put("big", Bytes("0123456789ab")).ok());
  ASSERT_TRUE(store.Put("small", Bytes("0123")).ok());
  auto got = store.Get("big", 0, 12);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->view(), "0123456789ab");
  auto uploads = store.ListMultipartUploads("");
  ASSERT_TRUE(uploads.ok());
  EXPECT_TRUE(uploads->empty());
}

TEST(MemoryObjectStoreTest, DyingBetweenPartsLeavesTheUploadInProgress) {
  MemoryObjectStore store;
  store.set_multipart_threshold(10, 4);
  store.DieDuringNextMultipartPut(2);
  EXPECT_EQ(store.Put("p/big", Bytes("0123456789ab")).code(), StatusCode::kIOError);
  // The dead process reaches nothing any more.
  EXPECT_EQ(store.ListMultipartUploads("p/").status().code(), StatusCode::kIOError);
  store.set_failing(false);
  EXPECT_EQ(store.Get("p/big", 0, 1).status().code(), StatusCode::kNotFound);
  auto uploads = store.ListMultipartUploads("p/");
  ASSERT_TRUE(uploads.ok());
  ASSERT_EQ(uploads->size(), 1u);
  EXPECT_EQ((*uploads)[0].key, "p/big");
  EXPECT_EQ(store.in_progress_part_bytes(), 8u);
  // Only the next multipart Put dies.
  EXPECT_TRUE(store.Put("p/big", Bytes("0123456789ab")).ok());
  EXPECT_EQ(store.ListMultipartUploads("p/")->size(), 1u);
  ASSERT_TRUE(store.AbortMultipartUpload("p/big", (*uploads)[0].upload_id).ok());
  EXPECT_EQ(store.in_progress_part_bytes(), 0u);
  EXPECT_EQ(store.aborted_uploads(), 1u);
  // An upload already gone is fine, and is not counted.
  EXPECT_TRUE(store.AbortMultipartUpload("p/big", (*uploads)[0].upload_id).ok());
  EXPECT_EQ(store.aborted_uploads(), 1u);
}

TEST(MemoryObjectStoreTest, UploadsAreListedByPrefixThenKeyThenId) {
  MemoryObjectStore store;
  const std::string b2 = store.StartAbandonedUpload("p/b", 1, 1);
  const std::string a = store.StartAbandonedUpload("p/a", 1, 1);
  const std::string b1 = store.StartAbandonedUpload("p/b", 1, 1);
  store.StartAbandonedUpload("q/a", 1, 1);
  auto uploads = store.ListMultipartUploads("p/");
  ASSERT_TRUE(uploads.ok());
  const std::vector<MultipartUpload> want = {{"p/a", a}, {"p/b", b2}, {"p/b", b1}};
  EXPECT_EQ(*uploads, want);
  store.set_list_uploads_status(Status::NotSupported("no listing"));
  EXPECT_EQ(store.ListMultipartUploads("p/").status().code(), StatusCode::kNotSupported);
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
