#pragma once

#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "common/ids.h"
#include "higgins/arrow/record_batch.h"

namespace higgins::stream {

/// A least-recently-used cache of decoded entries of one stream's bucket logs, keyed by
/// (bucket, base sequence), bounded by the bytes of the batches' buffers. It keeps reads of
/// recent or hot entries off the disk and out of checksum and decode work. Thread-safe.
class EntryCache {
 public:
  explicit EntryCache(size_t capacity_bytes) : capacity_(capacity_bytes) {}

  std::optional<arrow::RecordBatch> Get(BucketId bucket, Sequence base_sequence);
  /// Inserts or refreshes an entry, evicting the least recently used ones beyond capacity.
  /// A batch larger than the whole capacity is not kept.
  void Put(BucketId bucket, Sequence base_sequence, const arrow::RecordBatch& batch);

  size_t size_bytes() const;

  /// Bytes held by a batch's buffers.
  static size_t BatchBytes(const arrow::RecordBatch& batch);

 private:
  struct Key {
    BucketId bucket;
    Sequence base_sequence;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return std::hash<uint64_t>{}(k.base_sequence.value() * 1024 + k.bucket.value());
    }
  };
  struct Item {
    Key key;
    arrow::RecordBatch batch;
    size_t bytes;
  };

  const size_t capacity_;
  mutable std::mutex mu_;
  std::list<Item> lru_;  // most recent first
  // NOLINTNEXTLINE(readability-identifier-naming): clang-tidy 14 names `iterator` a member here
  std::unordered_map<Key, std::list<Item>::iterator, KeyHash> items_;
  size_t bytes_ = 0;
};

}  // namespace higgins::stream
