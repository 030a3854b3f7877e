// Storage in segment files: the folder layout and MakeFileStorage.
#include "common/file_util.h"
#include "storage/file_bucket_log.h"
#include "storage/storage.h"

namespace higgins::storage {
namespace {

/// Stateless apart from its options: each OpenBucket works in its own folder. Thread-safe.
/// Callers open each bucket at most once at a time and drop a stream only after closing its
/// buckets (open logs keep reading and writing their unlinked files otherwise).
class FileStorage final : public Storage {
 public:
  FileStorage(std::string directory, FileStorageOptions options)
      : directory_(std::move(directory)), options_(options) {}

  Result<std::unique_ptr<BucketLog>> OpenBucket(StreamId stream_id, BucketId bucket,
                                                arrow::SchemaPtr schema,
                                                Sequence durable_sequence) override {
    const std::string path = StreamDirectory(stream_id) + "/" + ToString(bucket);
    HIGGINS_RETURN_IF_ERROR(CreateDirectories(path));
    HIGGINS_ASSIGN_OR_RETURN(std::unique_ptr<FileBucketLog> log,
                             FileBucketLog::Open(path, stream_id, bucket, std::move(schema),
                                                 {.segment_bytes = options_.segment_bytes,
                                                  .durable_sequence = durable_sequence}));
    return std::unique_ptr<BucketLog>(std::move(log));
  }

  Status DropStream(StreamId stream_id) override {
    HIGGINS_RETURN_IF_ERROR(RemoveTree(StreamDirectory(stream_id)));
    return SyncDirectory(directory_);
  }

  bool durable() const override { return true; }

 private:
  std::string StreamDirectory(StreamId stream_id) const {
    return directory_ + "/" + ToString(stream_id);
  }

  const std::string directory_;
  const FileStorageOptions options_;
};

}  // namespace

Result<std::unique_ptr<Storage>> MakeFileStorage(const std::string& directory,
                                                 FileStorageOptions options) {
  if (directory.empty()) return Status::InvalidArgument("file storage needs a directory");
  if (options.segment_bytes == 0) {
    return Status::InvalidArgument("file storage segment_bytes must be positive");
  }
  std::string path = directory;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  HIGGINS_RETURN_IF_ERROR(CreateDirectories(path));
  return std::unique_ptr<Storage>(std::make_unique<FileStorage>(std::move(path), options));
}

}  // namespace higgins::storage
