#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "higgins/arrow/ipc/writer.h"
#include "storage/log_writer.h"
#include "storage/segment.h"
#include "storage/storage.h"

namespace higgins::storage {

/// A bucket log in segment files (docs/storage-format.md): one folder, one file per segment,
/// the newest segment being appended to. Open recovers the folder (see Storage::OpenBucket).
///
/// Threading (BucketLog's contract): Append and Sync from one writer thread at a time; Read,
/// Scan and next_sequence from any thread. The entry list and segment map are guarded by
/// `mutex_` (held only to look up or add an entry, never during I/O); preads of whole entries
/// never race with the writer, which only writes past them.
///
/// Validation on read: entries recovered from files when the log was opened are decoded with
/// ValidateFull (the bytes come from an earlier process, possibly another version); entries
/// appended through this object are not (the process serialised them from a batch the caller
/// vouched for, and the checksum proves the bytes are the same).
class FileBucketLog final : public BucketLog {
 public:
  struct Options {
    /// A segment is closed once it holds at least this many bytes.
    uint64_t segment_bytes = 64ull << 20;
    /// Rows the caller knows were synced (Storage::OpenBucket).
    Sequence durable_sequence;
    /// Where the folder's first segment must start: 0 for a log that keeps everything, later
    /// for one whose older segments moved elsewhere (the s3 storage's local write-ahead log).
    Sequence first_sequence;
  };
  static Result<std::unique_ptr<FileBucketLog>> Open(std::string directory, StreamId stream_id,
                                                     BucketId bucket, arrow::SchemaPtr schema,
                                                     const Options& options);
  ~FileBucketLog() override;

  Result<EntryInfo> Append(const arrow::RecordBatch& batch, int64_t timestamp_ms) override;
  Status Sync() override;
  Result<arrow::RecordBatch> Read(const EntryLocation& location) const override;
  Status Scan(
      Sequence from_sequence,
      const std::function<Status(const EntryInfo&, const arrow::RecordBatch&)>& fn) const override;
  Sequence next_sequence() const override {
    return Sequence(next_sequence_.load(std::memory_order_acquire));
  }

  // For a log whose older segments move elsewhere (the s3 storage's local write-ahead log).

  /// Seals the newest segment: fdatasyncs it, and the next Append starts a new one. Nothing to
  /// do when it holds no entry. Writer thread only.
  Status Roll();
  /// Removes the oldest segment, which must be sealed (not the one being appended to): its
  /// entries leave the entry list, the file is unlinked and the folder fsynced. The caller
  /// guarantees no Read of that segment runs concurrently. May run beside the writer thread.
  /// Errors: InvalidArgument for another segment, IOError.
  Status ReleaseSegment(Sequence base_sequence);
  /// A copy of the entry list (sequence order).
  std::vector<EntryInfo> entries() const;

 private:
  /// One segment file. Never removed while the log is open, so pointers to it stay valid.
  struct Segment {
    Sequence base_sequence;
    std::string path;
    FileHandle file;
  };

  FileBucketLog(std::string directory, StreamId stream_id, BucketId bucket, arrow::SchemaPtr schema,
                uint64_t segment_bytes);

  /// Scans every segment, cuts the newest one's damaged tail, rebuilds entries_.
  Status Recover();
  Status RecoverSegment(Sequence base_sequence, bool newest);
  /// Makes what recovery kept of the newest segment durable (fdatasync, then the folder), so
  /// that nothing the open log shows can be lost by a later power cut.
  Status SyncRecoveredTail();
  /// Makes the tail durable, then creates the segment starting at next_sequence().
  Status StartSegment();
  Status SyncTail();
  Result<arrow::RecordBatch> ReadEntry(const EntryInfo& entry, const Segment& segment) const;

  const std::string directory_;
  const StreamId stream_id_;
  const BucketId bucket_;
  const arrow::SchemaPtr schema_;
  const uint64_t segment_bytes_;

  // Writer state (the writer thread only).
  arrow::ipc::StreamWriter ipc_writer_;
  Buffer schema_message_;    // the IPC schema message, first frame of every segment
  Segment* tail_ = nullptr;  // the segment being appended to, if any
  std::unique_ptr<LogWriter> tail_writer_;
  uint64_t tail_entries_ = 0;
  bool tail_unsynced_ = false;       // the tail was written since the last fdatasync
  bool directory_unsynced_ = false;  // a segment was created since the last directory fsync
  Status failed_;                    // sticky: a failed fdatasync or cut-back

  // Shared with readers.
  mutable std::shared_mutex mutex_;
  std::vector<EntryInfo> entries_;  // sequence order = (segment, position) order
  std::map<Sequence, std::unique_ptr<Segment>> segments_;  // by base sequence
  std::atomic<uint64_t> next_sequence_{0};
  Sequence durable_sequence_;  // rows known synced: no tail cut below it (Storage::OpenBucket)
  Sequence trusted_from_;      // entries from this sequence on were appended by this object
};

}  // namespace higgins::storage
