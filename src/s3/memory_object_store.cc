// MemoryObjectStore: the in-memory fake of ObjectStore for the tests of the storage above it.
#include <map>
#include <mutex>

#include "s3/object_store.h"

namespace higgins::s3 {

struct MemoryObjectStore::State {
  std::mutex mu;
  std::map<std::string, Buffer> objects;
  bool failing = false;
  uint64_t gets = 0;
};

namespace {
Status Unreachable(const std::string& op, const std::string& key) {
  return Status::IOError("s3 " + op + " " + key + ": the store is unreachable (failing on purpose)");
}
}  // namespace

MemoryObjectStore::MemoryObjectStore() : state_(std::make_unique<State>()) {}
MemoryObjectStore::~MemoryObjectStore() = default;

Status MemoryObjectStore::Put(const std::string& key, std::span<const uint8_t> data) {
  std::lock_guard lock(state_->mu);
  if (state_->failing) return Unreachable("PUT", key);
  state_->objects[key] = Buffer::Copy(data);
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

void MemoryObjectStore::set_failing(bool failing) {
  std::lock_guard lock(state_->mu);
  state_->failing = failing;
}

uint64_t MemoryObjectStore::gets() const {
  std::lock_guard lock(state_->mu);
  return state_->gets;
}

}  // namespace higgins::s3
