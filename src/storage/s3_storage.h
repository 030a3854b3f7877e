#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "s3/object_store.h"
#include "storage/segment_object.h"
#include "storage/storage.h"

namespace higgins::storage {

/// `[storage.<name>] type = "s3"` (docs/configuration.md): each bucket log is a local
/// write-ahead log of segment files (the file storage's format) whose sealed segments are
/// uploaded as Arrow IPC file objects and then released locally.
struct S3StorageOptions {
  /// The storage's name, for messages and logs.
  std::string name;
  /// Object keys are `<prefix><stream id>/<bucket>/<base sequence, 20 digits>.arrow`. A
  /// non-empty prefix gets a trailing '/' if it has none.
  std::string prefix;
  /// A local segment is sealed (and uploaded) once it holds this many bytes...
  uint64_t segment_bytes = 16ull << 20;
  /// ...or when its first entry is this old...
  std::chrono::milliseconds segment_max_age{10000};
  /// ...or holds this many entries (bounds the object's footer).
  uint32_t segment_max_entries = 100000;
  /// Bytes of local segments not yet uploaded (over all buckets) past which CheckAppend
  /// refuses appends.
  uint64_t local_limit_bytes = 1ull << 30;
  /// Sync returns only once every entry is uploaded (one object per Sync that has new entries).
  bool ack_after_upload = false;
  /// Bounded cache of fetched record batch messages.
  uint64_t read_cache_bytes = 64ull << 20;
  /// Time a failed upload waits before the next attempt: doubles from `retry_base` up to
  /// `retry_max`, with jitter.
  std::chrono::milliseconds retry_base{200};
  std::chrono::milliseconds retry_max{10000};
};

/// S3 storage whose local logs live under `directory` and whose objects go to `store`. Making
/// it claims the prefix (the `higgins-owner` object), then aborts every multipart upload in
/// progress under the prefix (a crash cut it off), before anything is uploaded; a store that
/// does not implement the upload listing (NotSupported) is tolerated with one warning.
/// Opening a bucket lists its objects and reads their footers (so it fails with IOError while
/// the store is unreachable). Errors: InvalidArgument for bad options or a prefix another
/// --dir claimed; the store's errors from the claim, the listing or an abort, naming the
/// storage.
Result<std::unique_ptr<Storage>> MakeS3Storage(const std::string& directory,
                                               std::shared_ptr<s3::ObjectStore> store,
                                               S3StorageOptions options);

/// Reads the footer of segment object `object` (a GET of its trailer, then of its footer) and
/// decodes it as DecodeSegmentObjectFooter does. Errors: those of the store; Corruption.
Result<SegmentObjectInfo> ReadSegmentObjectFooter(s3::ObjectStore& store,
                                                  const s3::ObjectInfo& object,
                                                  const arrow::Schema& schema, StreamId stream_id,
                                                  BucketId bucket, Sequence base);

/// Counters of one s3 storage, for tests, benchmarks and logs.
struct S3StorageStats {
  uint64_t uploaded_objects = 0;
  uint64_t uploaded_bytes = 0;
  uint64_t failed_uploads = 0;
  uint64_t pending_local_bytes = 0;
  uint64_t remote_reads = 0;
  uint64_t cache_hits = 0;
};
/// The counters of a storage made by MakeS3Storage (all zero for any other storage).
S3StorageStats GetS3StorageStats(const Storage& storage);

}  // namespace higgins::storage
