#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "storage/segment.h"
#include "storage/storage.h"
#include "storage/storage_test_util.h"

namespace higgins::storage {

/// Each test gets a fresh directory; Open() opens bucket 0 of stream 1 in it, reopening the
/// storage every time (as a restarted broker would).
class FileStorageTest : public ::testing::Test {
 protected:
  std::unique_ptr<Storage> MakeStorage() {
    auto storage = MakeFileStorage(dir_.path(), options_);
    EXPECT_TRUE(storage.ok()) << storage.status().ToString();
    return std::move(storage).value();
  }

  /// `durable_sequence`: rows the caller knows were synced (Storage::OpenBucket).
  Result<std::unique_ptr<BucketLog>> TryOpen(uint64_t durable_sequence = 0) {
    return MakeStorage()->OpenBucket(StreamId(1), BucketId(0), testing::RecordSchema(),
                                     Sequence(durable_sequence));
  }

  std::unique_ptr<BucketLog> Open() {
    auto log = TryOpen();
    EXPECT_TRUE(log.ok()) << log.status().ToString();
    return log.ok() ? std::move(log).value() : nullptr;
  }

  std::string BucketPath() const { return dir_.path() + "/1/0"; }
  std::string SegmentPath(uint64_t base) const {
    return BucketPath() + "/" + SegmentFileName(Sequence(base));
  }

  static std::vector<std::pair<EntryInfo, arrow::RecordBatch>> ScanAll(const BucketLog& log,
                                                                       uint64_t from = 0) {
    std::vector<std::pair<EntryInfo, arrow::RecordBatch>> out;
    const Status st =
        log.Scan(Sequence(from), [&](const EntryInfo& e, const arrow::RecordBatch& b) {
          out.emplace_back(e, b);
          return Status::OK();
        });
    EXPECT_TRUE(st.ok()) << st.ToString();
    return out;
  }

  /// Checks that the log holds exactly `batches`, with consecutive sequences from 0.
  static std::vector<std::pair<EntryInfo, arrow::RecordBatch>> ExpectEntries(
      const BucketLog& log, const std::vector<arrow::RecordBatch>& batches) {
    auto scanned = ScanAll(log);
    EXPECT_EQ(scanned.size(), batches.size());
    Sequence sequence(0);
    for (size_t i = 0; i < scanned.size() && i < batches.size(); ++i) {
      EXPECT_EQ(scanned[i].first.base_sequence, sequence) << i;
      EXPECT_EQ(scanned[i].first.row_count, static_cast<uint64_t>(batches[i].num_rows())) << i;
      EXPECT_TRUE(scanned[i].second.Equals(batches[i])) << i;
      sequence += scanned[i].first.row_count;
    }
    EXPECT_EQ(log.next_sequence(), sequence);
    return scanned;
  }

  testing::TempDir dir_;
  FileStorageOptions options_;
};

}  // namespace higgins::storage
