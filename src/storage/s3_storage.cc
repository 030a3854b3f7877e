// Storage in object storage: the s3 storage, its bucket log handles and its uploader thread.
#include "storage/s3_storage.h"

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "common/file_util.h"
#include "storage/s3_bucket_log.h"

namespace higgins::storage {
namespace {

/// The bucket log handed to the broker: forwards to its core; closing it takes the core out
/// of the uploader's rounds.
class S3BucketLog final : public BucketLog {
 public:
  S3BucketLog(std::shared_ptr<S3BucketCore> core, std::function<void()> on_close)
      : core_(std::move(core)), on_close_(std::move(on_close)) {}
  ~S3BucketLog() override {
    on_close_();
    core_->Close();
  }

  Result<EntryInfo> Append(const arrow::RecordBatch& batch, int64_t timestamp_ms) override {
    return core_->Append(batch, timestamp_ms);
  }
  Status Sync() override { return core_->Sync(); }
  Result<arrow::RecordBatch> Read(const EntryLocation& location) const override {
    return core_->Read(location);
  }
  Status Scan(
      Sequence from_sequence,
      const std::function<Status(const EntryInfo&, const arrow::RecordBatch&)>& fn) const override {
    return core_->Scan(from_sequence, fn);
  }
  Sequence next_sequence() const override { return core_->next_sequence(); }

 private:
  std::shared_ptr<S3BucketCore> core_;
  std::function<void()> on_close_;
};

class S3Storage final : public Storage {
 public:
  S3Storage(std::string directory, std::shared_ptr<S3Shared> shared)
      : directory_(std::move(directory)),
        shared_(std::move(shared)),
        tick_(std::clamp(shared_->options.segment_max_age / 4, std::chrono::milliseconds(10),
                         std::chrono::milliseconds(500))),
        uploader_([this](std::vector<std::monostate>&) { return UploadRound(); },
                  std::chrono::steady_clock::now() + tick_) {
    std::lock_guard lock(shared_->wake_mu);
    shared_->uploader = &uploader_;
  }

  ~S3Storage() override {
    {
      std::lock_guard lock(shared_->wake_mu);
      shared_->uploader = nullptr;
    }
    uploader_.Stop();
  }

  Result<std::unique_ptr<BucketLog>> OpenBucket(StreamId stream_id, BucketId bucket,
                                                arrow::SchemaPtr schema,
                                                Sequence durable_sequence) override {
    const std::string path = directory_ + "/" + ToString(stream_id) + "/" + ToString(bucket);
    HIGGINS_ASSIGN_OR_RETURN(
        std::shared_ptr<S3BucketCore> core,
        S3BucketCore::Open(shared_, path, stream_id, bucket, std::move(schema), durable_sequence));
    {
      std::lock_guard lock(shared_->buckets_mu);
      shared_->buckets.push_back(core);
    }
    // The handle may outlive this storage object: it holds the shared state, not `this`.
    S3BucketCore* raw = core.get();
    return std::unique_ptr<BucketLog>(std::make_unique<S3BucketLog>(core, [shared = shared_, raw] {
      std::lock_guard lock(shared->buckets_mu);
      std::erase_if(shared->buckets, [raw](const auto& b) { return b.get() == raw; });
    }));
  }

  Status DropStream(StreamId stream_id) override {
    const std::string prefix = shared_->options.prefix + ToString(stream_id) + "/";
    HIGGINS_ASSIGN_OR_RETURN(std::vector<s3::ObjectInfo> objects, shared_->store->List(prefix));
    for (const s3::ObjectInfo& object : objects) {
      HIGGINS_RETURN_IF_ERROR(shared_->store->Delete(object.key));
    }
    shared_->cache.EraseWithPrefix(prefix);
    HIGGINS_RETURN_IF_ERROR(RemoveTree(directory_ + "/" + ToString(stream_id)));
    return SyncDirectory(directory_);
  }

  bool durable() const override { return true; }

  Status CheckAppend() const override {
    const uint64_t pending = shared_->pending_local_bytes.load();
    if (pending < shared_->options.local_limit_bytes) return Status::OK();
    Status cause = shared_->upload_error();
    return Status::ResourceExhausted(
        "storage '" + shared_->options.name + "': " + std::to_string(pending) +
        " bytes of records wait for upload to object storage, at or past the local limit "
        "(local_limit_bytes = " +
        std::to_string(shared_->options.local_limit_bytes) +
        "); nothing was written, retry once uploads catch up" +
        (cause.ok() ? std::string() : ". Last upload error: " + cause.ToString()));
  }

  S3StorageStats stats() const {
    S3StorageStats s;
    s.uploaded_objects = shared_->uploaded_objects.load();
    s.uploaded_bytes = shared_->uploaded_bytes.load();
    s.failed_uploads = shared_->failed_uploads.load();
    s.pending_local_bytes = shared_->pending_local_bytes.load();
    s.remote_reads = shared_->remote_reads.load();
    s.cache_hits = shared_->cache.hits();
    return s;
  }

 private:
  /// One round of the uploader thread (woken by a bucket that sealed a segment, or every
  /// tick_): every open bucket's UploadTick.
  BatchingWorker<>::NextRun UploadRound() {
    std::vector<std::shared_ptr<S3BucketCore>> buckets;
    {
      std::lock_guard lock(shared_->buckets_mu);
      buckets = shared_->buckets;
    }
    for (const auto& bucket : buckets) bucket->UploadTick(std::chrono::steady_clock::now());
    return std::chrono::steady_clock::now() + tick_;
  }

  const std::string directory_;
  const std::shared_ptr<S3Shared> shared_;
  const std::chrono::milliseconds tick_;
  BatchingWorker<> uploader_;  // last: its thread uses the members above
};

constexpr char kOwnerObject[] = "higgins-owner";
constexpr char kOwnerFile[] = "owner-id";

/// This --dir's id for the storage: `<directory>/owner-id`, made (32 random hex digits) when
/// absent.
Result<std::string> LocalOwnerId(const std::string& directory) {
  const std::string path = directory + "/" + kOwnerFile;
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    HIGGINS_ASSIGN_OR_RETURN(std::string id, ReadFileToString(path, 256));
    while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
    if (id.empty()) return Status::Corruption(path + " is empty");
    return id;
  }
  std::random_device random;
  std::string id;
  for (int i = 0; i < 4; ++i) {
    char part[9];
    std::snprintf(part, sizeof part, "%08x", static_cast<unsigned>(random()));
    id += part;
  }
  HIGGINS_RETURN_IF_ERROR(WriteFileAtomically(path, id + "\n"));
  return id;
}

/// Claims the storage's prefix for this --dir (the object `<prefix>higgins-owner` holds its
/// id), or refuses when another broker's --dir claimed it: two brokers writing one prefix would
/// give their streams the same ids and overwrite each other's objects.
Status ClaimPrefix(s3::ObjectStore& store, const S3StorageOptions& options,
                   const std::string& directory) {
  HIGGINS_ASSIGN_OR_RETURN(std::string id, LocalOwnerId(directory));
  const std::string key = options.prefix + kOwnerObject;
  auto where = [&](const Status& cause) {
    return Status(cause.code(),
                  "storage '" + options.name + "': the bucket is not usable: " + cause.message());
  };
  auto listed = store.List(key);
  if (!listed.ok()) return where(listed.status());
  const auto found = std::find_if(listed->begin(), listed->end(),
                                  [&](const s3::ObjectInfo& o) { return o.key == key; });
  if (found == listed->end()) {
    Status put = store.Put(key, {reinterpret_cast<const uint8_t*>(id.data()), id.size()});
    return put.ok() ? put : where(put);
  }
  auto owner = store.Get(key, 0, std::min<uint64_t>(found->size, 256));
  if (!owner.ok()) return where(owner.status());
  const std::string owner_id(reinterpret_cast<const char*>(owner->data()), owner->size());
  if (owner_id == id) return Status::OK();
  return Status::InvalidArgument(
      "storage '" + options.name + "': prefix '" + options.prefix +
      "' belongs to another broker (" + key + " holds " + owner_id + ", this --dir is " + id +
      "): two brokers writing one prefix would overwrite each other's objects. Give this storage "
      "another prefix; only to take the prefix over (this broker replaces one whose --dir is "
      "lost, with the same topography) delete " +
      key);
}

/// Aborts every multipart upload in progress under the storage's prefix: this runs after the
/// claim and before the uploader starts, so any such upload is one a crash cut off (ours, since
/// the prefix is ours), whose parts S3 would otherwise keep, and bill, forever. A server that
/// does not implement ListMultipartUploads (NotSupported) is tolerated with one warning; any
/// other failure fails the open, as the claim's would.
Status AbortStaleUploads(s3::ObjectStore& store, const S3StorageOptions& options) {
  auto where = [&](const Status& cause) {
    return Status(cause.code(),
                  "storage '" + options.name +
                      "': aborting the multipart uploads a crash left failed: " + cause.message());
  };
  auto uploads = store.ListMultipartUploads(options.prefix);
  if (uploads.status().code() == StatusCode::kNotSupported) {
    spdlog::warn(
        "storage '{}': the server does not list multipart uploads, so uploads a crash cut off "
        "are not aborted (configure the bucket to expire incomplete multipart uploads): {}",
        options.name, uploads.status().message());
    return Status::OK();
  }
  if (!uploads.ok()) return where(uploads.status());
  for (const s3::MultipartUpload& upload : *uploads) {
    Status aborted = store.AbortMultipartUpload(upload.key, upload.upload_id);
    if (!aborted.ok()) return where(aborted);
  }
  if (!uploads->empty()) {
    spdlog::info("storage '{}': aborted {} multipart uploads a crash left in progress",
                 options.name, uploads->size());
  }
  return Status::OK();
}

}  // namespace

bool IsUploadPending(const Status& status) {
  return status.code() == StatusCode::kDeadlineExceeded;
}

Result<std::unique_ptr<Storage>> MakeS3Storage(const std::string& directory,
                                               std::shared_ptr<s3::ObjectStore> store,
                                               S3StorageOptions options) {
  if (directory.empty()) return Status::InvalidArgument("s3 storage needs a local directory");
  if (store == nullptr) return Status::InvalidArgument("s3 storage needs an object store");
  if (options.segment_bytes == 0 || options.segment_max_entries == 0 ||
      options.segment_max_age.count() <= 0) {
    return Status::InvalidArgument("storage '" + options.name +
                                   "': segment_bytes, segment_max_entries and "
                                   "segment_max_age_ms must be positive");
  }
  if (!options.prefix.empty() && options.prefix.back() != '/') options.prefix += '/';
  for (size_t start = 0; start < options.prefix.size();) {
    const size_t end = options.prefix.find('/', start);
    const std::string_view segment = std::string_view(options.prefix).substr(start, end - start);
    if (segment == "." || segment == "..") {
      return Status::InvalidArgument(
          "storage '" + options.name + "': prefix '" + options.prefix +
          "' has a '.' or '..' segment, which S3-compatible servers may resolve as a path");
    }
    if (segment.empty()) {
      return Status::InvalidArgument(
          "storage '" + options.name + "': prefix '" + options.prefix +
          "' has an empty segment (a leading '/' or '//'), which S3-compatible servers may "
          "merge with its neighbours or refuse");
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  std::string path = directory;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  HIGGINS_RETURN_IF_ERROR(CreateDirectories(path));
  HIGGINS_RETURN_IF_ERROR(ClaimPrefix(*store, options, path));
  HIGGINS_RETURN_IF_ERROR(AbortStaleUploads(*store, options));
  auto shared = std::make_shared<S3Shared>(std::move(store), std::move(options));
  return std::unique_ptr<Storage>(std::make_unique<S3Storage>(std::move(path), std::move(shared)));
}

S3StorageStats GetS3StorageStats(const Storage& storage) {
  if (const auto* s3 = dynamic_cast<const S3Storage*>(&storage)) return s3->stats();
  return {};
}

}  // namespace higgins::storage
