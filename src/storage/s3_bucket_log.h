#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "common/batching_worker.h"
#include "s3/object_store.h"
#include "storage/file_bucket_log.h"
#include "storage/read_cache.h"
#include "storage/s3_storage.h"
#include "storage/segment_object.h"

namespace higgins::storage {

class S3BucketCore;

/// What the bucket logs of one s3 storage share: the store, the options, the read cache, the
/// counters and the uploader's wake-up. Thread-safe.
struct S3Shared {
  S3Shared(std::shared_ptr<s3::ObjectStore> s, S3StorageOptions o)
      : store(std::move(s)), options(std::move(o)), cache(options.read_cache_bytes) {}

  void Wake();
  void SetUploadError(const Status& status);
  Status upload_error() const;

  const std::shared_ptr<s3::ObjectStore> store;
  const S3StorageOptions options;
  ReadCache cache;
  std::atomic<uint64_t> pending_local_bytes{0};
  std::atomic<uint64_t> uploaded_objects{0};
  std::atomic<uint64_t> uploaded_bytes{0};
  std::atomic<uint64_t> failed_uploads{0};
  std::atomic<uint64_t> remote_reads{0};

  /// The storage's uploader, which Wake wakes; null once the storage is gone (the bucket
  /// logs may outlive it). Guarded by wake_mu.
  std::mutex wake_mu;
  BatchingWorker<>* uploader = nullptr;

  /// The open buckets, which the uploader visits (a bucket leaves when its log is closed).
  std::mutex buckets_mu;
  std::vector<std::shared_ptr<S3BucketCore>> buckets;

 private:
  mutable std::mutex error_mu_;
  Status upload_error_;
};

/// One bucket log of an s3 storage (docs/architecture.md, "Storage: bucket logs"): a FileBucketLog
/// under --dir as the write-ahead log, whose sealed segments are uploaded as segment objects and
/// then released.
///
/// Entry locations are logical: `segment` is the segment's base sequence, `position` the
/// entry's base sequence, `size` its row count; they stay valid when the segment moves from
/// the local log to the object store.
///
/// Threading: Append and Sync from one writer thread (BucketLog's contract); Read, Scan and
/// next_sequence from any thread; UploadTick from the storage's uploader thread. Locks, always
/// taken in this order: `upload_mu_` (one upload at a time), `write_mu_` (the local log's
/// writer side: Append, Sync, sealing), `mu_` (the entry list and segment states; held shared
/// during local reads, exclusively to release a local segment).
class S3BucketCore {
 public:
  /// Lists the bucket's objects, reads their footers, removes local segments already uploaded,
  /// opens the local log from where the objects end. Errors: IOError (store unreachable),
  /// Corruption (objects not contiguous, a footer that disagrees, a local segment overlapping
  /// the objects without matching one, fewer rows than `durable_sequence`).
  static Result<std::shared_ptr<S3BucketCore>> Open(const std::shared_ptr<S3Shared>& shared,
                                                    std::string local_directory, StreamId stream_id,
                                                    BucketId bucket, arrow::SchemaPtr schema,
                                                    Sequence durable_sequence);

  Result<EntryInfo> Append(const arrow::RecordBatch& batch, int64_t timestamp_ms);
  Status Sync();
  Result<arrow::RecordBatch> Read(const EntryLocation& location) const;
  Status Scan(Sequence from_sequence,
              const std::function<Status(const EntryInfo&, const arrow::RecordBatch&)>& fn) const;
  Sequence next_sequence() const { return wal_->next_sequence(); }

  /// The uploader's turn: seals a segment older than segment_max_age, then uploads every
  /// sealed segment in order, unless a failed upload's back-off has not elapsed.
  void UploadTick(std::chrono::steady_clock::time_point now);
  /// Waits for a running upload and stops further ones (the bucket is being closed).
  void Close();

 private:
  struct Segment {
    Sequence base;
    Sequence end;  // sequence after its last row
    uint32_t entries = 0;
    bool sealed = false;       // no more entries: ready to upload
    bool remote = false;       // uploaded: reads go to the object
    bool released = false;     // the local file is gone
    uint64_t local_bytes = 0;  // bytes of its entries in the local log
    std::chrono::steady_clock::time_point first_append;
  };
  struct Entry {
    EntryInfo info;               // with the logical location
    EntryLocation local;          // where the local log has it (until released)
    arrow::ipc::FileBlock block;  // where the object has it (once remote)
  };

  S3BucketCore(std::shared_ptr<S3Shared> shared, StreamId stream_id, BucketId bucket,
               arrow::SchemaPtr schema);

  std::string ObjectKey(Sequence base) const;
  /// Seals the segment being appended to (write_mu_ held).
  Status SealTail();
  /// Uploads and releases every sealed local segment, oldest first (upload_mu_ held).
  Status UploadSealed();
  Status UploadSegment(Sequence base);
  Result<arrow::RecordBatch> DecodeRemote(const Entry& entry, const Buffer& message) const;
  Status RemoteError(const Entry& entry, const Status& cause) const;

  const std::shared_ptr<S3Shared> shared_;
  const StreamId stream_id_;
  const BucketId bucket_;
  const arrow::SchemaPtr schema_;
  std::unique_ptr<FileBucketLog> wal_;

  std::mutex upload_mu_;
  bool closed_ = false;
  int failures_ = 0;
  std::chrono::steady_clock::time_point next_attempt_;

  std::mutex write_mu_;
  bool has_tail_ = false;
  Sequence tail_base_;

  mutable std::shared_mutex mu_;
  std::vector<Entry> entries_;  // sequence order
  std::map<Sequence, Segment> segments_;
};

}  // namespace higgins::storage
