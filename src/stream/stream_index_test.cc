#include "stream/stream_index.h"

#include <gtest/gtest.h>

namespace higgins::stream {
namespace {

storage::EntryInfo Entry(uint64_t base, uint32_t rows, int64_t ts) {
  storage::EntryInfo e;
  e.base_sequence = Sequence(base);
  e.row_count = rows;
  e.timestamp_ms = ts;
  e.location.position = base;
  return e;
}

TEST(StreamIndexTest, OffsetsAreDensePerKey) {
  StreamIndex index(1);
  uint64_t offsets[4];
  index.Add(BucketId(0), Entry(0, 4, 100), {"a", "b"}, {0, 1, 0, 0}, offsets);
  EXPECT_EQ(std::vector<uint64_t>(offsets, offsets + 4), (std::vector<uint64_t>{0, 0, 1, 2}));
  index.Add(BucketId(0), Entry(4, 2, 200), {"b", "a"}, {0, 1}, offsets);
  EXPECT_EQ(offsets[0], 1u);
  EXPECT_EQ(offsets[1], 3u);
  index.Publish(BucketId(0), Sequence(6));
  auto ref = index.At("a", 3);
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->entry.base_sequence, Sequence(4));
  EXPECT_EQ(ref->row, 1u);
  EXPECT_EQ(*index.Latest("b"), 1u);
}

TEST(StreamIndexTest, UnpublishedRowsAreInvisible) {
  StreamIndex index(1);
  uint64_t offsets[2];
  index.Add(BucketId(0), Entry(0, 1, 100), {"a"}, {0}, offsets);
  EXPECT_EQ(index.Latest("a").status().message(), "partition 'a' has no records");
  index.Publish(BucketId(0), Sequence(1));
  index.Add(BucketId(0), Entry(1, 1, 100), {"a"}, {0}, offsets);
  EXPECT_EQ(*index.Latest("a"), 0u);
  EXPECT_EQ(index.At("a", 1).status().message(), "partition 'a' has no offset 1 (latest is 0)");
  index.Publish(BucketId(0), Sequence(2));
  EXPECT_EQ(*index.Latest("a"), 1u);
}

TEST(StreamIndexTest, FirstAtOrAfterTimestamp) {
  StreamIndex index(1);
  uint64_t offsets[2];
  index.Add(BucketId(0), Entry(0, 2, 100), {"a"}, {0, 0}, offsets);
  index.Add(BucketId(0), Entry(2, 1, 200), {"a"}, {0}, offsets);
  index.Add(BucketId(0), Entry(3, 1, 300), {"a"}, {0}, offsets);
  index.Publish(BucketId(0), Sequence(4));
  EXPECT_EQ(*index.FirstAtOrAfter("a", 0), 0u);
  EXPECT_EQ(*index.FirstAtOrAfter("a", 100), 0u);
  EXPECT_EQ(*index.FirstAtOrAfter("a", 101), 2u);
  EXPECT_EQ(*index.FirstAtOrAfter("a", 300), 3u);
  EXPECT_EQ(index.FirstAtOrAfter("a", 301).status().code(), StatusCode::kNotFound);
}

TEST(StreamIndexTest, RangeIsBoundedAndClamped) {
  StreamIndex index(2);
  uint64_t offsets[10];
  index.Add(BucketId(1), Entry(0, 10, 1), {"k"}, std::vector<uint32_t>(10, 0), offsets);
  index.Publish(BucketId(1), Sequence(10));
  auto rows = index.Range("k", 2, 100, 5);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 5u);
  EXPECT_EQ(rows->front().offset, 2u);
  EXPECT_EQ(rows->back().offset, 6u);
  EXPECT_EQ(index.Range("k", 8, 100, 5)->size(), 2u);
  EXPECT_EQ(index.Range("k", 10, 12, 5).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(index.Range("k", 3, 3, 5).status().message(),
            "empty range: end 3 is not after start 3");
}

TEST(StreamIndexTest, PartitionsListedInKeyOrder) {
  StreamIndex index(1);
  uint64_t offsets[3];
  index.Add(BucketId(0), Entry(0, 3, 1), {"c", "a", "b"}, {0, 1, 2}, offsets);
  index.Publish(BucketId(0), Sequence(3));
  const PartitionListing listing = index.Partitions(2);
  EXPECT_EQ(listing.total, 3u);
  EXPECT_EQ(listing.records, 3u);
  const auto& parts = listing.partitions;
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].key, "a");
  EXPECT_EQ(parts[1].key, "b");
}

}  // namespace
}  // namespace higgins::stream
