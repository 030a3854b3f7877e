#pragma once

#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "higgins/buffer.h"

namespace higgins::storage {

/// A bounded least-recently-used cache of byte ranges fetched from object storage, keyed by
/// object key and offset. Holds at most `capacity_bytes` of buffers (a buffer larger than that is
/// not kept; 0 disables the cache). Thread-safe.
class ReadCache {
 public:
  explicit ReadCache(uint64_t capacity_bytes) : capacity_(capacity_bytes) {}

  std::optional<Buffer> Get(const std::string& key, uint64_t offset);
  void Put(const std::string& key, uint64_t offset, Buffer bytes);
  /// Drops every range of objects whose key starts with `prefix` (a dropped stream).
  void EraseWithPrefix(const std::string& prefix);

  uint64_t bytes() const;
  uint64_t hits() const;
  uint64_t misses() const;

 private:
  struct Item {
    std::string id;  // key + '\0' + offset
    Buffer bytes;
  };
  static std::string Id(const std::string& key, uint64_t offset);
  void EvictLocked();

  const uint64_t capacity_;
  mutable std::mutex mu_;
  std::list<Item> lru_;  // most recent first
  std::unordered_map<std::string, std::list<Item>::iterator> items_;
  uint64_t bytes_ = 0;
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
};

}  // namespace higgins::storage
