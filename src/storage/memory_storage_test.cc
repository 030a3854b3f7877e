// Memory storage: same BucketLog contract, batches kept as they are.
#include <gtest/gtest.h>

#include "storage/storage.h"
#include "storage/storage_test_util.h"

namespace higgins::storage {
namespace {

using testing::RecordBatchOf;
using testing::RecordSchema;

TEST(MemoryStorageTest, AppendReadScan) {
  auto storage = MakeMemoryStorage();
  EXPECT_FALSE(storage->durable());
  auto log = storage->OpenBucket(StreamId(1), BucketId(0), RecordSchema(), Sequence(0));
  ASSERT_TRUE(log.ok());
  std::vector<EntryInfo> entries;
  std::vector<arrow::RecordBatch> batches;
  for (int i = 0; i < 4; ++i) {
    batches.push_back(RecordBatchOf(5, i * 5));
    auto entry = (*log)->Append(batches.back(), 100 + i);
    ASSERT_TRUE(entry.ok());
    EXPECT_EQ(entry->base_sequence, Sequence(static_cast<uint64_t>(i * 5)));
    EXPECT_EQ(entry->location, (EntryLocation{0, static_cast<uint64_t>(i), 0}));
    entries.push_back(*entry);
  }
  ASSERT_TRUE((*log)->Sync().ok());
  EXPECT_EQ((*log)->next_sequence(), Sequence(20));
  for (size_t i = 0; i < entries.size(); ++i) {
    auto read = (*log)->Read(entries[i].location);
    ASSERT_TRUE(read.ok());
    EXPECT_TRUE(read->Equals(batches[i]));
  }
  std::vector<Sequence> seen;
  ASSERT_TRUE((*log)
                  ->Scan(Sequence(7),
                         [&](const EntryInfo& e, const arrow::RecordBatch&) {
                           seen.push_back(e.base_sequence);
                           return Status::OK();
                         })
                  .ok());
  EXPECT_EQ(seen, (std::vector<Sequence>{Sequence(5), Sequence(10), Sequence(15)}));
  const Status stop = (*log)->Scan(Sequence(0), [](const EntryInfo&, const arrow::RecordBatch&) {
    return Status::Internal("stop");
  });
  EXPECT_EQ(stop.message(), "stop");
}

TEST(MemoryStorageTest, ErrorsMatchTheContract) {
  auto storage = MakeMemoryStorage();
  auto log = storage->OpenBucket(StreamId(1), BucketId(0), RecordSchema(), Sequence(0));
  ASSERT_TRUE(log.ok());
  EXPECT_EQ((*log)->Append(RecordBatchOf(0), 0).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ((*log)->Read({0, 0, 0}).status().code(), StatusCode::kNotFound);
  ASSERT_TRUE((*log)->Append(RecordBatchOf(1), 0).ok());
  EXPECT_EQ((*log)->Read({1, 0, 0}).status().code(), StatusCode::kNotFound);
  auto other = arrow::MakeSchema({arrow::Field("x", arrow::DataType::Int8())});
  EXPECT_EQ(storage->OpenBucket(StreamId(1), BucketId(0), other, Sequence(0)).status().code(),
            StatusCode::kCorruption);
}

TEST(MemoryStorageTest, ReopenKeepsEntriesAndDropStreamForgetsThem) {
  auto storage = MakeMemoryStorage();
  {
    auto log = storage->OpenBucket(StreamId(3), BucketId(2), RecordSchema(), Sequence(0));
    ASSERT_TRUE(log.ok());
    ASSERT_TRUE((*log)->Append(RecordBatchOf(4), 0).ok());
  }
  auto again = storage->OpenBucket(StreamId(3), BucketId(2), RecordSchema(), Sequence(0));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->next_sequence(), Sequence(4));
  ASSERT_TRUE(storage->DropStream(StreamId(3)).ok());
  auto dropped = storage->OpenBucket(StreamId(3), BucketId(2), RecordSchema(), Sequence(0));
  ASSERT_TRUE(dropped.ok());
  EXPECT_EQ((*dropped)->next_sequence(), Sequence(0));
}

}  // namespace
}  // namespace higgins::storage
