#pragma once

// Test-only: the in-memory fake of ObjectStore (higgins_s3_testing; never linked into the broker).

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "s3/object_store.h"

namespace higgins::s3 {

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
