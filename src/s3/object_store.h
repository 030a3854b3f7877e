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

/// The narrow view of an object store that the s3 storage needs (DESIGN.md §5). Keys are full
/// object keys (the storage's prefix included), any UTF-8 of 1..1024 bytes. Thread-safe.
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
};

/// An in-memory store for unit tests of the code above it (a fake behind this interface; the
/// s3 client is tested against a real server). `fail` makes every call return IOError while set.
class MemoryObjectStore final : public ObjectStore {
 public:
  MemoryObjectStore();
  ~MemoryObjectStore() override;
  Status Put(const std::string& key, std::span<const uint8_t> data) override;
  Result<Buffer> Get(const std::string& key, uint64_t offset, uint64_t length) override;
  Result<std::vector<ObjectInfo>> List(const std::string& prefix) override;
  Status Delete(const std::string& key) override;

  void set_failing(bool failing);
  /// Number of Get calls that reached the store (for cache tests).
  uint64_t gets() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace higgins::s3
