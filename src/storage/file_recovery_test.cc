// File storage recovery: torn tails, checksum failures, damaged older segments, failed writes.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>

#include <filesystem>

#include "higgins/bit_util.h"
#include "storage/file_storage_test_util.h"
#include "storage/log_frame.h"
#include "storage/segment_format.h"

namespace higgins::storage {
namespace {

using testing::FileSizeOf;
using testing::ListFiles;
using testing::ReadFileBytes;
using testing::RecordBatchOf;
using testing::TruncateFile;
using testing::WriteFileBytes;

class FileRecoveryTest : public FileStorageTest {
 protected:
  // Appends `count` batches (synced) and returns them with their entries.
  void AppendBatches(int count, int64_t rows = 3) {
    auto log = Open();
    for (int i = 0; i < count; ++i) {
      batches_.push_back(RecordBatchOf(rows, static_cast<int64_t>(log->next_sequence().value())));
      auto entry = log->Append(batches_.back(), i);
      ASSERT_TRUE(entry.ok()) << entry.status().ToString();
      entries_.push_back(*entry);
    }
    ASSERT_TRUE(log->Sync().ok());
  }

  std::vector<arrow::RecordBatch> First(size_t n) const {
    return {batches_.begin(), batches_.begin() + static_cast<ptrdiff_t>(n)};
  }

  std::vector<arrow::RecordBatch> batches_;
  std::vector<EntryInfo> entries_;
};

TEST_F(FileRecoveryTest, TornTailIsCut) {
  AppendBatches(3);
  const std::string path = SegmentPath(0);
  const std::vector<uint8_t> original = ReadFileBytes(path);
  const uint64_t last = entries_[2].location.position;
  ASSERT_EQ(last + entries_[2].location.size, original.size());
  for (uint64_t size = last; size < original.size(); ++size) {
    WriteFileBytes(path, original);
    TruncateFile(path, size);
    auto log = Open();
    ASSERT_NE(log, nullptr) << size;
    ExpectEntries(*log, First(2));
    EXPECT_EQ(FileSizeOf(path), last) << size;
  }
  auto log = Open();
  auto batches = First(2);
  batches.push_back(RecordBatchOf(5, static_cast<int64_t>(log->next_sequence().value())));
  ASSERT_TRUE(log->Append(batches.back(), 0).ok());
  ExpectEntries(*log, batches);
}

// A segment cut inside its header or schema frame (created, never completed) holds no entry:
// it is removed and the next Append creates it again.
TEST_F(FileRecoveryTest, TornSegmentHeaderIsRemoved) {
  AppendBatches(1);
  const std::string path = SegmentPath(0);
  const std::vector<uint8_t> original = ReadFileBytes(path);
  for (uint64_t size = 0; size < entries_[0].location.position; ++size) {
    WriteFileBytes(path, original);
    TruncateFile(path, size);
    auto log = Open();
    ASSERT_NE(log, nullptr) << size;
    EXPECT_EQ(log->next_sequence(), Sequence(0));
    EXPECT_FALSE(std::filesystem::exists(path)) << size;
  }
  auto log = Open();
  ASSERT_TRUE(log->Append(batches_[0], 0).ok());
  ExpectEntries(*log, First(1));
}

TEST_F(FileRecoveryTest, CorruptChecksumAtTailIsCut) {
  AppendBatches(3);
  const std::string path = SegmentPath(0);
  std::vector<uint8_t> bytes = ReadFileBytes(path);
  bytes[bytes.size() - 10] ^= 0x01;
  WriteFileBytes(path, bytes);
  auto log = Open();
  ExpectEntries(*log, First(2));
  EXPECT_EQ(FileSizeOf(path), entries_[2].location.position);
}

// Recovery cannot tell a torn tail from damage in the middle of the newest segment (unsynced
// pages may reach the disk in any order): it keeps the entries before the first bad frame.
TEST_F(FileRecoveryTest, CorruptChecksumInsideNewestSegmentCutsFromThere) {
  AppendBatches(4);
  const std::string path = SegmentPath(0);
  std::vector<uint8_t> bytes = ReadFileBytes(path);
  bytes[entries_[1].location.position + kFrameHeaderSize + 3] ^= 0x40;
  WriteFileBytes(path, bytes);
  auto log = Open();
  ExpectEntries(*log, First(1));
  EXPECT_EQ(FileSizeOf(path), entries_[1].location.position);
}

// When the caller's index shows the entries after the damage were synced, the damage cannot be
// a torn write: cutting would drop acknowledged records, so opening fails instead.
TEST_F(FileRecoveryTest, DamageBelowTheDurableSequenceIsCorruption) {
  AppendBatches(4);
  const std::string path = SegmentPath(0);
  std::vector<uint8_t> bytes = ReadFileBytes(path);
  bytes[entries_[1].location.position + kFrameHeaderSize + 3] ^= 0x40;
  WriteFileBytes(path, bytes);
  const uint64_t synced = entries_[3].end_sequence().value();
  auto log = TryOpen(synced);
  ASSERT_EQ(log.status().code(), StatusCode::kCorruption);
  EXPECT_NE(log.status().message().find("Refusing to cut acknowledged records"), std::string::npos)
      << log.status().message();
  EXPECT_EQ(ReadFileBytes(path), bytes) << "the file must be left as it was";
  // Damage past what the index knows is a torn tail and is cut as before.
  EXPECT_NE(TryOpen(entries_[1].base_sequence.value()).status().code(), StatusCode::kCorruption);
}

TEST_F(FileRecoveryTest, LogShorterThanTheDurableSequenceIsCorruption) {
  AppendBatches(2);
  const uint64_t synced = entries_[1].end_sequence().value();
  std::filesystem::remove(SegmentPath(0));
  auto log = TryOpen(synced);
  ASSERT_EQ(log.status().code(), StatusCode::kCorruption);
  EXPECT_NE(log.status().message().find("segment data is missing or damaged"), std::string::npos)
      << log.status().message();
}

TEST_F(FileRecoveryTest, CorruptOlderSegmentIsCorruption) {
  options_.segment_bytes = 1024;
  AppendBatches(12);
  ASSERT_GT(ListFiles(BucketPath()).size(), 2u);
  const std::string path = SegmentPath(0);
  const std::vector<uint8_t> original = ReadFileBytes(path);

  std::vector<uint8_t> flipped = original;
  flipped[entries_[0].location.position + kFrameHeaderSize + 1] ^= 0x01;
  WriteFileBytes(path, flipped);
  EXPECT_EQ(TryOpen().status().code(), StatusCode::kCorruption);

  WriteFileBytes(path, original);
  TruncateFile(path, original.size() - 1);
  auto torn = TryOpen();
  EXPECT_EQ(torn.status().code(), StatusCode::kCorruption);
  EXPECT_NE(torn.status().message().find("not the newest"), std::string::npos)
      << torn.status().ToString();

  WriteFileBytes(path, original);
  ExpectEntries(*Open(), batches_);
}

TEST_F(FileRecoveryTest, MissingSegmentIsCorruption) {
  options_.segment_bytes = 1024;
  AppendBatches(12);
  const std::vector<std::string> files = ListFiles(BucketPath());
  ASSERT_GT(files.size(), 2u);
  std::filesystem::remove(files[1]);
  EXPECT_EQ(TryOpen().status().code(), StatusCode::kCorruption);
}

TEST_F(FileRecoveryTest, OtherSchemaIsCorruption) {
  AppendBatches(1);
  auto other = arrow::MakeSchema({arrow::Field("seq", arrow::DataType::Int64(), false)});
  EXPECT_EQ(MakeStorage()->OpenBucket(StreamId(1), BucketId(0), other, Sequence(0)).status().code(),
            StatusCode::kCorruption);
}

TEST_F(FileRecoveryTest, SegmentHeaderForAnotherBucketIsCorruption) {
  AppendBatches(1);
  std::filesystem::create_directories(dir_.path() + "/1/5");
  std::filesystem::copy_file(SegmentPath(0), dir_.path() + "/1/5/" + SegmentFileName(Sequence(0)));
  EXPECT_EQ(MakeStorage()
                ->OpenBucket(StreamId(1), BucketId(5), testing::RecordSchema(), Sequence(0))
                .status()
                .code(),
            StatusCode::kCorruption);
}

// Entries written by an earlier process are decoded with ValidateFull: bytes that pass their
// checksum but hold invalid UTF-8 are Corruption, not a batch.
TEST_F(FileRecoveryTest, RecoveredEntriesAreFullyValidated) {
  AppendBatches(1, 5);
  const std::string path = SegmentPath(0);
  std::vector<uint8_t> bytes = ReadFileBytes(path);
  const EntryLocation& at = entries_[0].location;
  size_t i = at.position + at.size - 1;
  while (bytes[i] != 'x') --i;
  bytes[i] = 0xFF;
  const size_t payload = at.position + kFrameHeaderSize;
  bit_util::StoreLE<uint32_t>(
      bytes.data() + at.position + kFrameChecksumOffset,
      FrameChecksum(bytes[at.position + kFrameTypeOffset],
                    {{bytes.data() + payload, at.size - kFrameHeaderSize}}));
  WriteFileBytes(path, bytes);
  auto log = Open();
  EXPECT_EQ(log->next_sequence(), Sequence(5));
  auto read = log->Read(at);
  EXPECT_EQ(read.status().code(), StatusCode::kCorruption) << read.status().ToString();
}

// A write past RLIMIT_FSIZE fails: nothing is appended and the log goes on.
TEST_F(FileRecoveryTest, FailedAppendIsCutBack) {
  auto log = Open();
  ASSERT_TRUE(log->Append(RecordBatchOf(3), 0).ok());
  const uint64_t size = FileSizeOf(SegmentPath(0));

  struct sigaction ignore = {}, previous = {};
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(::sigaction(SIGXFSZ, &ignore, &previous), 0);
  rlimit old_limit;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  rlimit limit = old_limit;
  limit.rlim_cur = size + 100;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limit), 0);
  auto failed = log->Append(RecordBatchOf(100, 3), 1);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &old_limit), 0);
  ASSERT_EQ(::sigaction(SIGXFSZ, &previous, nullptr), 0);

  EXPECT_EQ(failed.status().code(), StatusCode::kIOError) << failed.status().ToString();
  EXPECT_EQ(FileSizeOf(SegmentPath(0)), size);
  EXPECT_EQ(log->next_sequence(), Sequence(3));
  ASSERT_TRUE(log->Append(RecordBatchOf(2, 3), 2).ok());
  ASSERT_TRUE(log->Sync().ok());
  log.reset();
  ExpectEntries(*Open(), {RecordBatchOf(3), RecordBatchOf(2, 3)});
}

}  // namespace
}  // namespace higgins::storage
