// File storage: appending, reading back, segments, concurrency, the on-disk format.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <set>
#include <thread>

#include "arrow/ipc/framing.h"
#include "higgins/arrow/ipc/reader.h"
#include "storage/file_storage_test_util.h"
#include "storage/log_frame.h"
#include "storage/segment_format.h"

namespace higgins::storage {
namespace {

using testing::FileSizeOf;
using testing::ListFiles;
using testing::ReadFileBytes;
using testing::RecordBatchOf;
using testing::RecordSchema;

TEST_F(FileStorageTest, AppendReadBack) {
  auto log = Open();
  std::vector<arrow::RecordBatch> batches;
  for (int i = 0; i < 5; ++i) {
    batches.push_back(RecordBatchOf(10, i * 10));
    auto entry = log->Append(batches.back(), 1000 + i);
    ASSERT_TRUE(entry.ok()) << entry.status().ToString();
    EXPECT_EQ(entry->base_sequence, Sequence(static_cast<uint64_t>(i * 10)));
    EXPECT_EQ(entry->row_count, 10u);
    EXPECT_EQ(entry->timestamp_ms, 1000 + i);
    auto read = log->Read(entry->location);
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    EXPECT_TRUE(read->Equals(batches.back()));
  }
  ASSERT_TRUE(log->Sync().ok());
  EXPECT_EQ(log->next_sequence(), Sequence(50));
  ExpectEntries(*log, batches);
  const auto from_25 = ScanAll(*log, 25);
  ASSERT_EQ(from_25.size(), 3u);
  EXPECT_EQ(from_25[0].first.base_sequence, Sequence(20));
  EXPECT_TRUE(ScanAll(*log, 50).empty());
}

TEST_F(FileStorageTest, SurvivesReopen) {
  std::vector<arrow::RecordBatch> batches;
  std::vector<EntryInfo> entries;
  {
    auto log = Open();
    for (int i = 0; i < 4; ++i) {
      batches.push_back(RecordBatchOf(3 + i, static_cast<int64_t>(log->next_sequence().value())));
      entries.push_back(*log->Append(batches.back(), 7 * i));
    }
    ASSERT_TRUE(log->Sync().ok());
  }
  auto log = Open();
  EXPECT_EQ(log->next_sequence(), Sequence(3 + 4 + 5 + 6));
  const auto scanned = ExpectEntries(*log, batches);
  for (size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(scanned[i].first.location, entries[i].location);
    EXPECT_EQ(scanned[i].first.timestamp_ms, entries[i].timestamp_ms);
    auto read = log->Read(entries[i].location);
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    EXPECT_TRUE(read->Equals(batches[i]));
  }
  batches.push_back(RecordBatchOf(2, static_cast<int64_t>(log->next_sequence().value())));
  ASSERT_TRUE(log->Append(batches.back(), 99).ok());
  ExpectEntries(*log, batches);
}

TEST_F(FileStorageTest, AppendRejectsEmptyBatchesAndOtherSchemas) {
  auto log = Open();
  EXPECT_EQ(log->Append(RecordBatchOf(0), 0).status().code(), StatusCode::kInvalidArgument);
  arrow::ArrayBuilder ints(arrow::DataType::Int32());
  ints.AppendPrimitive<int32_t>(1);
  auto batch = arrow::RecordBatch::Make(
      arrow::MakeSchema({arrow::Field("seq", arrow::DataType::Int32(), false)}), 1,
      {ints.Finish()});
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(log->Append(*batch, 0).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(log->next_sequence(), Sequence(0));
  EXPECT_TRUE(ListFiles(dir_.path()).empty());
}

TEST_F(FileStorageTest, ReadOfUnknownLocationIsNotFound) {
  auto log = Open();
  auto entry = log->Append(RecordBatchOf(5), 0);
  ASSERT_TRUE(entry.ok());
  EntryLocation wrong = entry->location;
  wrong.position += 1;
  EXPECT_EQ(log->Read(wrong).status().code(), StatusCode::kNotFound);
  wrong = entry->location;
  wrong.size -= 1;
  EXPECT_EQ(log->Read(wrong).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(log->Read({12345, 32, 100}).status().code(), StatusCode::kNotFound);
}

TEST_F(FileStorageTest, SegmentRollover) {
  options_.segment_bytes = 4096;
  std::vector<arrow::RecordBatch> batches;
  std::vector<EntryInfo> entries;
  {
    auto log = Open();
    for (int i = 0; i < 30; ++i) {
      batches.push_back(RecordBatchOf(8, static_cast<int64_t>(log->next_sequence().value())));
      entries.push_back(*log->Append(batches.back(), i));
    }
    ASSERT_TRUE(log->Sync().ok());
  }
  const std::vector<std::string> files = ListFiles(BucketPath());
  ASSERT_GT(files.size(), 2u);
  for (size_t i = 0; i + 1 < files.size(); ++i) EXPECT_GE(FileSizeOf(files[i]), 4096u) << files[i];
  std::set<uint64_t> segments;
  for (const EntryInfo& e : entries) {
    segments.insert(e.location.segment);
    EXPECT_TRUE(std::filesystem::exists(SegmentPath(e.location.segment)));
  }
  EXPECT_EQ(segments.size(), files.size());
  EXPECT_EQ(*segments.begin(), 0u);
  auto log = Open();
  ExpectEntries(*log, batches);
}

TEST_F(FileStorageTest, ConcurrentReadDuringAppend) {
  options_.segment_bytes = 16 << 10;
  auto log = Open();
  constexpr int kBatches = 300;
  std::atomic<bool> done{false};
  std::atomic<int> failures{0};
  auto reader = [&] {
    while (!done.load()) {
      Sequence expected(0);
      const Sequence before = log->next_sequence();
      const Status st =
          log->Scan(Sequence(0), [&](const EntryInfo& e, const arrow::RecordBatch& b) {
            const bool ok =
                e.base_sequence == expected && b.num_rows() == e.row_count &&
                b.column(0).Value<int64_t>(0) == static_cast<int64_t>(e.base_sequence.value());
            if (!ok) failures.fetch_add(1);
            expected += e.row_count;
            return Status::OK();
          });
      if (!st.ok() || expected < before) failures.fetch_add(1);
    }
  };
  std::thread r1(reader), r2(reader);
  for (int i = 0; i < kBatches; ++i) {
    const int64_t rows = 1 + i % 13;
    const auto first = static_cast<int64_t>(log->next_sequence().value());
    const bool appended = log->Append(RecordBatchOf(rows, first), i).ok();
    EXPECT_TRUE(appended);
    if (!appended || (i % 50 == 0 && !log->Sync().ok())) break;
  }
  done.store(true);
  r1.join();
  r2.join();
  EXPECT_EQ(failures.load(), 0);
}

// The IPC parts of a segment's frames, in order and followed by the end-of-stream marker, are an
// Arrow IPC stream that any Arrow reader can open.
TEST_F(FileStorageTest, SegmentIsValidArrowIpcStream) {
  std::vector<arrow::RecordBatch> batches;
  {
    auto log = Open();
    for (int i = 0; i < 3; ++i) {
      batches.push_back(RecordBatchOf(4 + i, static_cast<int64_t>(log->next_sequence().value())));
      ASSERT_TRUE(log->Append(batches.back(), i).ok());
    }
  }
  const std::vector<uint8_t> file = ReadFileBytes(SegmentPath(0));
  ASSERT_EQ(std::string(file.begin(), file.begin() + 5), "HGSEG");
  std::vector<uint8_t> stream;
  size_t position = kSegmentHeaderSize;
  int frames = 0;
  while (position < file.size()) {
    const DecodedFrame frame = DecodeFrame({file.data() + position, file.size() - position});
    ASSERT_EQ(frame.error, FrameError::kNone) << position;
    const size_t skip = frames == 0 ? 0 : kBatchPrefixSize;
    EXPECT_EQ(frame.type,
              static_cast<uint8_t>(frames == 0 ? FrameType::kSchema : FrameType::kBatch));
    stream.insert(stream.end(), frame.payload.begin() + static_cast<ptrdiff_t>(skip),
                  frame.payload.end());
    position += frame.size;
    ++frames;
  }
  stream.insert(stream.end(), std::begin(arrow::ipc::kEndOfStream),
                std::end(arrow::ipc::kEndOfStream));
  auto read = arrow::ipc::ReadStream(Buffer::Copy({stream.data(), stream.size()}));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(*read->schema, *RecordSchema());
  ASSERT_EQ(read->batches.size(), batches.size());
  for (size_t i = 0; i < batches.size(); ++i) EXPECT_TRUE(read->batches[i].Equals(batches[i]));
}

TEST_F(FileStorageTest, DropStreamRemovesFiles) {
  auto storage = MakeStorage();
  for (auto [stream, bucket] : {std::pair<uint64_t, uint32_t>{7, 0}, {7, 1}, {8, 0}}) {
    auto log = storage->OpenBucket(StreamId(stream), BucketId(bucket), RecordSchema(), Sequence(0));
    ASSERT_TRUE(log.ok());
    ASSERT_TRUE((*log)->Append(RecordBatchOf(3), 0).ok());
    ASSERT_TRUE((*log)->Sync().ok());
  }
  ASSERT_TRUE(storage->DropStream(StreamId(7)).ok());
  EXPECT_FALSE(std::filesystem::exists(dir_.path() + "/7"));
  EXPECT_EQ(ListFiles(dir_.path() + "/8").size(), 1u);
  auto reopened = storage->OpenBucket(StreamId(7), BucketId(0), RecordSchema(), Sequence(0));
  ASSERT_TRUE(reopened.ok());
  EXPECT_EQ((*reopened)->next_sequence(), Sequence(0));
  EXPECT_TRUE(storage->DropStream(StreamId(99)).ok());
  EXPECT_TRUE(storage->durable());
}

}  // namespace
}  // namespace higgins::storage
