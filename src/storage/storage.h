#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "common/ids.h"
#include "higgins/arrow/record_batch.h"
#include "higgins/result.h"

namespace higgins::storage {

/// Where one entry of a bucket log lives. For file storage: the segment's base sequence (its file
/// name), the byte position of the entry's frame and the frame's size. For memory storage:
/// `position` is the entry's index and the rest is 0.
struct EntryLocation {
  uint64_t segment = 0;
  uint64_t position = 0;
  uint32_t size = 0;
  friend bool operator==(const EntryLocation&, const EntryLocation&) = default;
};

/// One entry: `row_count` rows of a bucket log at sequences [base_sequence, base_sequence +
/// row_count), committed together at `timestamp_ms` (ms since the Unix epoch).
struct EntryInfo {
  Sequence base_sequence;
  uint32_t row_count = 0;
  int64_t timestamp_ms = 0;
  EntryLocation location;
  /// The sequence after the entry's last row.
  Sequence end_sequence() const { return base_sequence + row_count; }
};

/// Where a Scan from `from` starts: the index of the first of `entries` (a random-access range in
/// sequence order, as every bucket log keeps its entries) whose rows end after `from`;
/// `entries.size()` when none does. `info(element)` gives an element's EntryInfo.
template <typename Entries, typename InfoOf>
size_t FirstEntryEndingAfter(const Entries& entries, Sequence from, InfoOf info) {
  auto it = std::partition_point(entries.begin(), entries.end(), [&](const auto& element) {
    return info(element).end_sequence() <= from;
  });
  return static_cast<size_t>(it - entries.begin());
}

/// One bucket log of one stream (docs/architecture.md, "Storage: bucket logs"): record batches in
/// commit order with a dense sequence. Thread-safety: Append and Sync are called by one writer
/// thread at a time; Read and Scan may run concurrently with them from other threads (they see
/// entries whose Append has returned).
class BucketLog {
 public:
  virtual ~BucketLog() = default;

  /// Appends `batch` (the stream's schema, 1 .. 2^31-1 rows) as one entry at next_sequence().
  /// Not durable until Sync() returns. Errors: IOError (nothing is appended then: a partial
  /// write is cut back), InvalidArgument for a batch of another schema or with no rows.
  virtual Result<EntryInfo> Append(const arrow::RecordBatch& batch, int64_t timestamp_ms) = 0;

  /// Makes every appended entry durable (fdatasync of the segment files written since the last
  /// Sync; the directory too when a segment was created). Memory storage: nothing to do.
  virtual Status Sync() = 0;

  /// The batch of the entry at `location`, checksum verified. Errors: NotFound for a location
  /// that is not in the log, Corruption when the bytes fail their checksum or do not decode,
  /// IOError.
  virtual Result<arrow::RecordBatch> Read(const EntryLocation& location) const = 0;

  /// Calls `fn` for each entry whose sequences end after `from_sequence`, in order; stops at
  /// the first error `fn` returns and returns it.
  virtual Status Scan(
      Sequence from_sequence,
      const std::function<Status(const EntryInfo&, const arrow::RecordBatch&)>& fn) const = 0;

  /// The sequence the next appended row gets (the number of rows in the log).
  virtual Sequence next_sequence() const = 0;
};

/// One `[storage.<name>]` backend. Thread-safe.
class Storage {
 public:
  virtual ~Storage() = default;

  /// Opens (creating if absent) bucket `bucket` of stream `stream_id`, whose records have
  /// `schema`. File storage recovers the log here: every segment is checked frame by frame and
  /// a torn or corrupt tail (after the last valid entry of the newest segment) is cut off and
  /// reported in the log. `durable_sequence` is what the caller knows was synced (from its
  /// index): a tail cut below it would drop acknowledged records, so that damage is Corruption
  /// instead (it cannot be a torn write). Errors: IOError; Corruption when an older segment (not
  /// the tail) is damaged, a segment holds another schema, or the log ends (after cutting)
  /// below `durable_sequence`.
  virtual Result<std::unique_ptr<BucketLog>> OpenBucket(StreamId stream_id, BucketId bucket,
                                                        arrow::SchemaPtr schema,
                                                        Sequence durable_sequence) = 0;

  /// Deletes every bucket log of the stream (after the stream was removed from the topography).
  virtual Status DropStream(StreamId stream_id) = 0;

  /// True when an appended-and-synced entry survives a process or machine crash.
  virtual bool durable() const = 0;

  /// Whether appends are accepted now, asked before a commit appends anything, so that a
  /// refusal leaves every log as it was. OK unless the storage has reached an explicit limit:
  /// ResourceExhausted (s3 storage: `local_limit_bytes` of records wait for upload).
  virtual Status CheckAppend() const { return Status::OK(); }
};

/// What BucketLog::Sync returns when the entries are durable in a local log but a storage that
/// acknowledges only after upload could not confirm the upload in time: the entries stay, will
/// be uploaded, and are visible to readers; the caller must not report them acknowledged.
/// Code DeadlineExceeded.
bool IsUploadPending(const Status& status);

/// Storage that keeps batches in memory: nothing survives a restart.
std::unique_ptr<Storage> MakeMemoryStorage();

struct FileStorageOptions {
  /// A segment is closed and a new one started once it holds at least this many bytes.
  uint64_t segment_bytes = 64ull << 20;
};

/// Storage in segment files under `directory` (created if absent): one folder per stream id and
/// bucket, each segment an Arrow IPC stream (schema written once, then one record batch message
/// per entry) framed with a length and CRC32 per entry; docs/storage-format.md gives the bytes.
Result<std::unique_ptr<Storage>> MakeFileStorage(const std::string& directory,
                                                 FileStorageOptions options = {});

}  // namespace higgins::storage
