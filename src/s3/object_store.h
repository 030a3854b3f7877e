#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "higgins/buffer.h"
#include "higgins/result.h"

namespace higgins::s3 {

/// One object of a listing: its full key and its size in bytes.
struct ObjectInfo {
  std::string key;
  uint64_t size = 0;
  friend bool operator==(const ObjectInfo&, const ObjectInfo&) = default;
};

/// A multipart upload that was started and neither completed nor aborted (what a process that
/// died between parts leaves behind: its parts take storage until the upload is aborted).
struct MultipartUpload {
  std::string key;
  std::string upload_id;
  friend bool operator==(const MultipartUpload&, const MultipartUpload&) = default;
};

/// The narrow view of an object store that the s3 storage needs (docs/architecture.md, "Storage:
/// bucket logs"). Keys are full object keys (the storage's prefix included), any UTF-8 of 1..1024
/// bytes. Thread-safe.
///
/// Errors, for every call: IOError when the store cannot be reached or keeps failing (timeouts,
/// connection refused, HTTP 5xx) after the implementation's retries, with a message naming the
/// operation, the key and the last cause; InvalidArgument when the store refuses the request
/// (HTTP 4xx other than 404, such as a bad signature or a missing bucket). Messages never contain
/// credentials.
class ObjectStore {
 public:
  virtual ~ObjectStore() = default;

  /// Stores `data` under `key`, replacing any object there. The object is visible to Get and
  /// List once this returns OK; on error no partial object is visible (large objects go up as a
  /// multipart upload, aborted on failure).
  virtual Status Put(const std::string& key, std::span<const uint8_t> data) = 0;

  /// Bytes [offset, offset + length) of the object. NotFound when there is no such object;
  /// OutOfRange when the range is not inside the object.
  virtual Result<Buffer> Get(const std::string& key, uint64_t offset, uint64_t length) = 0;

  /// Every object whose key starts with `prefix`, in key order (all pages of the listing).
  virtual Result<std::vector<ObjectInfo>> List(const std::string& prefix) = 0;

  /// Removes the object; OK when it does not exist.
  virtual Status Delete(const std::string& key) = 0;

  /// Every multipart upload in progress whose key starts with `prefix` (all pages), in the
  /// store's order (S3: by key, then by start time). NotSupported when the store answers that it
  /// does not implement the listing (HTTP 501 or S3 error code NotImplemented; s3rver does so).
  virtual Result<std::vector<MultipartUpload>> ListMultipartUploads(const std::string& prefix) = 0;

  /// Aborts the upload `upload_id` of `key`, freeing its parts; OK when there is no such upload
  /// (already completed or aborted: 404 NoSuchUpload).
  virtual Status AbortMultipartUpload(const std::string& key, const std::string& upload_id) = 0;
};

/// An in-memory store for unit tests of the code above it (a fake behind this interface; the
/// s3 client is tested against a real server). `fail` makes every call return IOError while set.
/// It models multipart uploads in progress: with `set_multipart_threshold`, a Put of that many
/// bytes or more goes through an upload (started, parts added, completed), which
/// `DieDuringNextMultipartPut` can cut off as a crash between parts would.
class MemoryObjectStore final : public ObjectStore {
 public:
  MemoryObjectStore();
  ~MemoryObjectStore() override;
  Status Put(const std::string& key, std::span<const uint8_t> data) override;
  Result<Buffer> Get(const std::string& key, uint64_t offset, uint64_t length) override;
  Result<std::vector<ObjectInfo>> List(const std::string& prefix) override;
  Status Delete(const std::string& key) override;
  /// By key, then by upload id (ids increase with each upload started).
  Result<std::vector<MultipartUpload>> ListMultipartUploads(const std::string& prefix) override;
  Status AbortMultipartUpload(const std::string& key, const std::string& upload_id) override;

  /// Puts of at least `threshold` bytes (> 0) go up as multipart uploads of `part_size` parts.
  void set_multipart_threshold(uint64_t threshold, uint64_t part_size);
  /// The next multipart Put adds `parts_before_death` parts and then the "process dies": the
  /// upload stays in progress, Put returns IOError, and the store fails every call (as
  /// set_failing(true)) until set_failing(false), so the dead process cannot clean up.
  void DieDuringNextMultipartPut(int parts_before_death);
  /// Starts an upload of `key` with `parts` parts of `part_bytes` and leaves it in progress;
  /// returns its id.
  std::string StartAbandonedUpload(const std::string& key, int parts, uint64_t part_bytes);
  /// While set (not OK), ListMultipartUploads returns `status` (a server without the listing
  /// answers NotSupported).
  void set_list_uploads_status(Status status);
  /// Bytes held by the parts of uploads in progress (what a leaked upload costs on S3).
  uint64_t in_progress_part_bytes() const;
  /// Number of AbortMultipartUpload calls that found their upload.
  uint64_t aborted_uploads() const;

  void set_failing(bool failing);
  /// Number of Get calls that reached the store (for cache tests).
  uint64_t gets() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace higgins::s3
