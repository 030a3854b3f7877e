// IndexLog and its record codec.
#include "storage/index_log.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "storage/index_codec.h"
#include "storage/log_frame.h"
#include "storage/segment_format.h"
#include "storage/storage_test_util.h"

namespace higgins::storage {
namespace {

using testing::FileSizeOf;
using testing::ReadFileBytes;
using testing::TruncateFile;
using testing::WriteFileBytes;

IndexRecord MakeRecord(uint64_t base, uint32_t rows) {
  IndexRecord record;
  record.entry = {Sequence(base),
                  rows,
                  -1234567 + static_cast<int64_t>(base),
                  {base / 10, base * 100, rows * 50}};
  record.keys = {"alpha", "", std::string(300, 'k')};
  record.keys.resize(std::min<size_t>(rows, 3));
  for (uint32_t i = 0; i < rows; ++i) record.key_indexes.push_back(i % record.keys.size());
  return record;
}

void ExpectSame(const IndexRecord& a, const IndexRecord& b) {
  EXPECT_EQ(a.entry.base_sequence, b.entry.base_sequence);
  EXPECT_EQ(a.entry.row_count, b.entry.row_count);
  EXPECT_EQ(a.entry.timestamp_ms, b.entry.timestamp_ms);
  EXPECT_EQ(a.entry.location, b.entry.location);
  EXPECT_EQ(a.keys, b.keys);
  EXPECT_EQ(a.key_indexes, b.key_indexes);
}

TEST(IndexCodecTest, RoundTripAndEveryTruncationIsCorruption) {
  const IndexRecord record = MakeRecord(1ull << 40, 200);
  BufferBuilder out;
  EncodeIndexRecord(record, out);
  auto decoded = DecodeIndexRecord({out.data(), out.size()});
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ExpectSame(*decoded, record);
  for (size_t n = 0; n < out.size(); ++n) {
    EXPECT_EQ(DecodeIndexRecord({out.data(), n}).status().code(), StatusCode::kCorruption) << n;
  }
  out.AppendValue<uint8_t>(0);
  EXPECT_EQ(DecodeIndexRecord({out.data(), out.size()}).status().code(), StatusCode::kCorruption);
}

TEST(IndexCodecTest, MalformedRecordsAreRefused) {
  IndexRecord record = MakeRecord(0, 4);
  record.key_indexes.pop_back();
  EXPECT_EQ(CheckIndexRecord(record).code(), StatusCode::kInvalidArgument);
  record = MakeRecord(0, 4);
  record.key_indexes[0] = 3;
  EXPECT_EQ(CheckIndexRecord(record).code(), StatusCode::kInvalidArgument);
  BufferBuilder out;
  EncodeIndexRecord(record, out);  // encodes as given: the decoder must refuse it
  EXPECT_EQ(DecodeIndexRecord({out.data(), out.size()}).status().code(), StatusCode::kCorruption);
}

class IndexLogTest : public ::testing::Test {
 protected:
  std::unique_ptr<IndexLog> Open(std::vector<IndexRecord>* records) {
    auto log = IndexLog::Open(path_, records);
    EXPECT_TRUE(log.ok()) << log.status().ToString();
    return log.ok() ? std::move(log).value() : nullptr;
  }

  testing::TempDir dir_;
  std::string path_ = dir_.path() + "/bucket-0.index";
};

TEST_F(IndexLogTest, RoundTrip) {
  std::vector<IndexRecord> records;
  {
    auto log = Open(&records);
    EXPECT_TRUE(records.empty());
    for (uint32_t i = 0; i < 50; ++i) ASSERT_TRUE(log->Append(MakeRecord(i * 10, 10)).ok());
    ASSERT_TRUE(log->Flush(true).ok());
    ASSERT_TRUE(log->Append(MakeRecord(500, 1)).ok());
  }  // destruction writes the last, unflushed record
  auto log = Open(&records);
  ASSERT_EQ(records.size(), 51u);
  for (uint32_t i = 0; i < 50; ++i) ExpectSame(records[i], MakeRecord(i * 10, 10));
  ExpectSame(records[50], MakeRecord(500, 1));
  IndexRecord bad = MakeRecord(0, 2);
  bad.key_indexes.clear();
  EXPECT_EQ(log->Append(bad).code(), StatusCode::kInvalidArgument);
}

TEST_F(IndexLogTest, TornTailIsCut) {
  std::vector<IndexRecord> records;
  {
    auto log = Open(&records);
    ASSERT_TRUE(log->Append(MakeRecord(0, 3)).ok());
    ASSERT_TRUE(log->Append(MakeRecord(3, 3)).ok());
    ASSERT_TRUE(log->Flush(true).ok());
  }
  const std::vector<uint8_t> original = ReadFileBytes(path_);
  BufferBuilder last;
  EncodeIndexRecord(MakeRecord(3, 3), last);
  const uint64_t first_end = original.size() - kFrameHeaderSize - last.size();
  for (uint64_t size = first_end; size < original.size(); ++size) {
    WriteFileBytes(path_, original);
    TruncateFile(path_, size);
    auto log = Open(&records);
    ASSERT_EQ(records.size(), 1u) << size;
    ExpectSame(records[0], MakeRecord(0, 3));
    EXPECT_EQ(FileSizeOf(path_), first_end);
  }
  std::vector<uint8_t> flipped = original;
  flipped.back() ^= 0x10;
  WriteFileBytes(path_, flipped);
  Open(&records);
  EXPECT_EQ(records.size(), 1u);
  // A torn header (the file was being created) is rewritten.
  TruncateFile(path_, 3);
  ASSERT_NE(Open(&records), nullptr);
  EXPECT_TRUE(records.empty());
  EXPECT_EQ(FileSizeOf(path_), kIndexHeaderSize);
}

TEST_F(IndexLogTest, ValidFrameWithBadRecordIsCorruption) {
  std::vector<IndexRecord> records;
  Open(&records);
  std::vector<uint8_t> bytes = ReadFileBytes(path_);
  BufferBuilder frame;
  const uint8_t garbage[] = {0x80, 0x80};
  AppendFrame(FrameType::kIndexRecord, garbage, frame);
  bytes.insert(bytes.end(), frame.data(), frame.data() + frame.size());
  WriteFileBytes(path_, bytes);
  EXPECT_EQ(IndexLog::Open(path_, &records).status().code(), StatusCode::kCorruption);
  WriteFileBytes(path_, {'n', 'o', 'p', 'e', 0, 0, 0, 0, 0});
  EXPECT_EQ(IndexLog::Open(path_, &records).status().code(), StatusCode::kCorruption);
}

}  // namespace
}  // namespace higgins::storage
