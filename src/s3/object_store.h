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

}  // namespace higgins::s3
