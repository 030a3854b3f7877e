#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "higgins/result.h"
#include "storage/storage.h"

namespace higgins::storage {

/// One index record: where an entry of a bucket log is and which partition key each of its rows
/// has, so that per-key offsets can be rebuilt without reading the data.
struct IndexRecord {
  EntryInfo entry;
  /// Distinct partition keys of the entry, in first-seen order (raw key bytes).
  std::vector<std::string> keys;
  /// For each row of the entry, its index into `keys` (row_count values).
  std::vector<uint32_t> key_indexes;
};

/// The index of one bucket log, kept in its own append-only file under --dir (detached from the
/// data, which may live elsewhere). Records are framed with a length and CRC32
/// (docs/storage-format.md, "Index files"). The index may lag the data: after a crash, records
/// missing at the tail are rebuilt from the bucket log (BucketLog::Scan) and appended.
/// Not thread-safe.
class IndexLog {
 public:
  /// Opens or creates `path`, reading every valid record; a torn or corrupt tail is cut.
  /// Errors: IOError, Corruption when a record before the tail is damaged.
  static Result<std::unique_ptr<IndexLog>> Open(const std::string& path,
                                                std::vector<IndexRecord>* records);
  virtual ~IndexLog() = default;

  /// Buffers one record (written to the file by Flush or when the buffer passes 1 MiB).
  virtual Status Append(const IndexRecord& record) = 0;
  /// Writes buffered records to the file; with `sync`, fdatasyncs it.
  virtual Status Flush(bool sync) = 0;
};

}  // namespace higgins::storage
