#include "storage/read_cache.h"

namespace higgins::storage {

std::string ReadCache::Id(const std::string& key, uint64_t offset) {
  std::string id = key;
  id += '\0';
  id += std::to_string(offset);
  return id;
}

std::optional<Buffer> ReadCache::Get(const std::string& key, uint64_t offset) {
  std::lock_guard lock(mu_);
  auto it = items_.find(Id(key, offset));
  if (it == items_.end()) {
    ++misses_;
    return std::nullopt;
  }
  ++hits_;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->bytes;
}

void ReadCache::Put(const std::string& key, uint64_t offset, Buffer bytes) {
  if (bytes.size() > capacity_) return;
  std::lock_guard lock(mu_);
  std::string id = Id(key, offset);
  if (auto it = items_.find(id); it != items_.end()) {
    bytes_ -= it->second->bytes.size();
    lru_.erase(it->second);
    items_.erase(it);
  }
  bytes_ += bytes.size();
  lru_.push_front(Item{id, std::move(bytes)});
  items_.emplace(std::move(id), lru_.begin());
  EvictLocked();
}

void ReadCache::EraseWithPrefix(const std::string& prefix) {
  std::lock_guard lock(mu_);
  for (auto it = lru_.begin(); it != lru_.end();) {
    if (it->id.starts_with(prefix)) {
      bytes_ -= it->bytes.size();
      items_.erase(it->id);
      it = lru_.erase(it);
    } else {
      ++it;
    }
  }
}

void ReadCache::EvictLocked() {
  while (bytes_ > capacity_ && !lru_.empty()) {
    bytes_ -= lru_.back().bytes.size();
    items_.erase(lru_.back().id);
    lru_.pop_back();
  }
}

uint64_t ReadCache::bytes() const {
  std::lock_guard lock(mu_);
  return bytes_;
}
uint64_t ReadCache::hits() const {
  std::lock_guard lock(mu_);
  return hits_;
}
uint64_t ReadCache::misses() const {
  std::lock_guard lock(mu_);
  return misses_;
}

}  // namespace higgins::storage
