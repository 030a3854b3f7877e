#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "higgins/arrow/record_batch.h"
#include "higgins/buffer.h"

/// Helpers shared by the storage tests and benchmark.
namespace higgins::storage::testing {

/// A directory made with mkdtemp under /tmp, removed with its contents on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// {seq: int64 not null, key: utf8 not null, payload: utf8}.
arrow::SchemaPtr RecordSchema();
/// `rows` rows of about `record_bytes` bytes each (seq = first_seq + i, key "key-<i % 7>",
/// payload filling the rest; every 10th payload null).
arrow::RecordBatch RecordBatchOf(int64_t rows, int64_t first_seq = 0, int64_t record_bytes = 100);

/// Whole-file helpers (they abort the test through gtest on failure).
std::vector<uint8_t> ReadFileBytes(const std::string& path);
void WriteFileBytes(const std::string& path, const std::vector<uint8_t>& bytes);
void TruncateFile(const std::string& path, uint64_t size);
uint64_t FileSizeOf(const std::string& path);
/// Regular files under `directory` (recursively), sorted.
std::vector<std::string> ListFiles(const std::string& directory);

}  // namespace higgins::storage::testing
