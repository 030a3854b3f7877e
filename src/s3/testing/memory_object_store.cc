// MemoryObjectStore: the in-memory fake of ObjectStore for the tests of the storage above it.
#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <utility>

#include "s3/testing/memory_object_store.h"

namespace higgins::s3 {

struct MemoryObjectStore::State {
  std::mutex mu;
  std::map<std::string, Buffer> objects;
  /// Uploads in progress by (key, upload id): their parts, in order.
  std::map<std::pair<std::string, std::string>, std::vector<Buffer>> uploads;
  uint64_t next_upload = 1;
  uint64_t multipart_threshold = 0;  // 0: every Put is a single PUT
  uint64_t part_size = 0;
  int die_after_parts = -1;  // >= 0: the next multipart Put dies after that many parts
  Status list_uploads_status;
  bool failing = false;
  uint64_t gets = 0;
  uint64_t aborted = 0;

  /// Starts an upload of `key`; returns its id (zero-padded, so ids sort in start order).
  std::string StartUpload(const std::string& key) {
    char id[32];
    std::snprintf(id, sizeof id, "upload-%08llu", static_cast<unsigned long long>(next_upload++));
    uploads[{key, id}];
    return id;
  }
};

namespace {
Status Unreachable(const std::string& op, const std::string& key) {
  return Status::IOError("s3 " + op + " " + key +
                         ": the store is unreachable (failing on purpose)");
}
}  // namespace

MemoryObjectStore::MemoryObjectStore() : state_(std::make_unique<State>()) {}
MemoryObjectStore::~MemoryObjectStore() = default;

Status MemoryObjectStore::Put(const std::string& key, std::span<const uint8_t> data) {
  std::lock_guard lock(state_->mu);
  State& s = *state_;
  if (s.failing) return Unreachable("PUT", key);
  if (s.multipart_threshold == 0 || data.size() < s.multipart_threshold) {
    s.objects[key] = Buffer::Copy(data);
    return Status::OK();
  }
  const std::string id = s.StartUpload(key);
  std::vector<Buffer>& parts = s.uploads[{key, id}];
  for (uint64_t begin = 0; begin < data.size(); begin += s.part_size) {
    if (s.die_after_parts >= 0 && parts.size() == static_cast<size_t>(s.die_after_parts)) {
      s.die_after_parts = -1;
      s.failing = true;
      return Status::IOError("s3 PUT " + key + ": the process died after " +
                             std::to_string(parts.size()) + " parts of upload " + id);
    }
    parts.push_back(Buffer::Copy(data.subspan(begin, std::min(s.part_size, data.size() - begin))));
  }
  s.uploads.erase({key, id});
  s.objects[key] = Buffer::Copy(data);
  return Status::OK();
}

Result<Buffer> MemoryObjectStore::Get(const std::string& key, uint64_t offset, uint64_t length) {
  std::lock_guard lock(state_->mu);
  if (state_->failing) return Unreachable("GET", key);
  ++state_->gets;
  auto it = state_->objects.find(key);
  if (it == state_->objects.end()) return Status::NotFound("s3 GET " + key + ": no such object");
  const Buffer& object = it->second;
  if (offset > object.size() || length > object.size() - offset) {
    return Status::OutOfRange("s3 GET " + key + ": bytes " + std::to_string(offset) + "+" +
                              std::to_string(length) + " are not inside its " +
                              std::to_string(object.size()) + " bytes");
  }
  return Buffer::Copy(object.span().subspan(offset, length));
}

Result<std::vector<ObjectInfo>> MemoryObjectStore::List(const std::string& prefix) {
  std::lock_guard lock(state_->mu);
  if (state_->failing) return Unreachable("LIST", prefix);
  std::vector<ObjectInfo> listed;
  for (auto it = state_->objects.lower_bound(prefix);
       it != state_->objects.end() && it->first.starts_with(prefix); ++it) {
    listed.push_back({it->first, it->second.size()});
  }
  return listed;
}

Status MemoryObjectStore::Delete(const std::string& key) {
  std::lock_guard lock(state_->mu);
  if (state_->failing) return Unreachable("DELETE", key);
  state_->objects.erase(key);
  return Status::OK();
}

Result<std::vector<MultipartUpload>> MemoryObjectStore::ListMultipartUploads(
    const std::string& prefix) {
  std::lock_guard lock(state_->mu);
  if (state_->failing) return Unreachable("LIST UPLOADS", prefix);
  if (!state_->list_uploads_status.ok()) return state_->list_uploads_status;
  std::vector<MultipartUpload> listed;
  for (auto it = state_->uploads.lower_bound({prefix, ""});
       it != state_->uploads.end() && it->first.first.starts_with(prefix); ++it) {
    listed.push_back({it->first.first, it->first.second});
  }
  return listed;
}

Status MemoryObjectStore::AbortMultipartUpload(const std::string& key,
                                               const std::string& upload_id) {
  std::lock_guard lock(state_->mu);
  if (state_->failing) return Unreachable("ABORT", key);
  if (state_->uploads.erase({key, upload_id}) != 0) ++state_->aborted;
  return Status::OK();
}

void MemoryObjectStore::set_multipart_threshold(uint64_t threshold, uint64_t part_size) {
  std::lock_guard lock(state_->mu);
  state_->multipart_threshold = threshold;
  state_->part_size = std::max<uint64_t>(part_size, 1);
}

void MemoryObjectStore::DieDuringNextMultipartPut(int parts_before_death) {
  std::lock_guard lock(state_->mu);
  state_->die_after_parts = std::max(parts_before_death, 0);
}

std::string MemoryObjectStore::StartAbandonedUpload(const std::string& key, int parts,
                                                    uint64_t part_bytes) {
  std::lock_guard lock(state_->mu);
  const std::string id = state_->StartUpload(key);
  std::vector<Buffer>& stored = state_->uploads[{key, id}];
  const std::vector<uint8_t> bytes(part_bytes, 0x5A);
  for (int i = 0; i < parts; ++i) stored.push_back(Buffer::Copy(bytes));
  return id;
}

void MemoryObjectStore::set_list_uploads_status(Status status) {
  std::lock_guard lock(state_->mu);
  state_->list_uploads_status = std::move(status);
}

uint64_t MemoryObjectStore::in_progress_part_bytes() const {
  std::lock_guard lock(state_->mu);
  uint64_t bytes = 0;
  for (const auto& [upload, parts] : state_->uploads) {
    for (const Buffer& part : parts) bytes += part.size();
  }
  return bytes;
}

uint64_t MemoryObjectStore::aborted_uploads() const {
  std::lock_guard lock(state_->mu);
  return state_->aborted;
}

void MemoryObjectStore::set_failing(bool failing) {
  std::lock_guard lock(state_->mu);
  state_->failing = failing;
}

uint64_t MemoryObjectStore::gets() const {
  std::lock_guard lock(state_->mu);
  return state_->gets;
}

}  // namespace higgins::s3
