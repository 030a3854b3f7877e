#include "stream/entry_cache.h"

namespace higgins::stream {

size_t EntryCache::BatchBytes(const arrow::RecordBatch& batch) {
  size_t bytes = 0;
  for (const arrow::Array& column : batch.columns()) {
    for (const Buffer& buffer : column.data().buffers) bytes += buffer.size();
  }
  return bytes + 64;  // the batch's own bookkeeping, roughly
}

std::optional<arrow::RecordBatch> EntryCache::Get(BucketId bucket, Sequence base_sequence) {
  std::lock_guard lock(mu_);
  auto it = items_.find(Key{bucket, base_sequence});
  if (it == items_.end()) return std::nullopt;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->batch;
}

void EntryCache::Put(BucketId bucket, Sequence base_sequence, const arrow::RecordBatch& batch) {
  const size_t bytes = BatchBytes(batch);
  if (bytes > capacity_) return;
  std::lock_guard lock(mu_);
  const Key key{bucket, base_sequence};
  auto it = items_.find(key);
  if (it != items_.end()) {
    bytes_ -= it->second->bytes;
    lru_.erase(it->second);
    items_.erase(it);
  }
  lru_.push_front(Item{key, batch, bytes});
  items_.emplace(key, lru_.begin());
  bytes_ += bytes;
  while (bytes_ > capacity_) {
    Item& last = lru_.back();
    bytes_ -= last.bytes;
    items_.erase(last.key);
    lru_.pop_back();
  }
}

size_t EntryCache::size_bytes() const {
  std::lock_guard lock(mu_);
  return bytes_;
}

}  // namespace higgins::stream
