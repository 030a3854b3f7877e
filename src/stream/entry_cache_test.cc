#include "stream/entry_cache.h"

#include <gtest/gtest.h>

namespace higgins::stream {
namespace {

arrow::RecordBatch Batch(int32_t value, int rows) {
  arrow::ArrayBuilder b(arrow::DataType::Int32());
  for (int i = 0; i < rows; ++i) b.AppendPrimitive<int32_t>(value);
  auto schema = arrow::MakeSchema({arrow::Field("v", arrow::DataType::Int32())});
  return *arrow::RecordBatch::Make(schema, rows, {b.Finish()});
}

TEST(EntryCacheTest, EvictsLeastRecentlyUsedBeyondCapacity) {
  const size_t one = EntryCache::BatchBytes(Batch(0, 100));
  EntryCache cache(one * 2);
  cache.Put(BucketId(0), Sequence(0), Batch(1, 100));
  cache.Put(BucketId(0), Sequence(100), Batch(2, 100));
  ASSERT_TRUE(cache.Get(BucketId(0), Sequence(0)).has_value());  // now 0 is the most recent
  cache.Put(BucketId(1), Sequence(0), Batch(3, 100));            // evicts (0, 100)
  EXPECT_FALSE(cache.Get(BucketId(0), Sequence(100)).has_value());
  ASSERT_TRUE(cache.Get(BucketId(0), Sequence(0)).has_value());
  EXPECT_EQ(cache.Get(BucketId(0), Sequence(0))->column(0).Value<int32_t>(0), 1);
  EXPECT_EQ(cache.Get(BucketId(1), Sequence(0))->column(0).Value<int32_t>(0), 3);
  EXPECT_EQ(cache.size_bytes(), one * 2);
}

TEST(EntryCacheTest, BatchLargerThanCapacityIsNotKept) {
  EntryCache cache(16);
  cache.Put(BucketId(0), Sequence(0), Batch(1, 100));
  EXPECT_FALSE(cache.Get(BucketId(0), Sequence(0)).has_value());
  EXPECT_EQ(cache.size_bytes(), 0u);
}

TEST(EntryCacheTest, PutReplacesTheSameKey) {
  EntryCache cache(1 << 20);
  cache.Put(BucketId(0), Sequence(0), Batch(1, 10));
  cache.Put(BucketId(0), Sequence(0), Batch(2, 10));
  EXPECT_EQ(cache.Get(BucketId(0), Sequence(0))->column(0).Value<int32_t>(0), 2);
  EXPECT_EQ(cache.size_bytes(), EntryCache::BatchBytes(Batch(2, 10)));
}

}  // namespace
}  // namespace higgins::stream
