#pragma once

#include <cstdint>
#include <functional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "higgins/result.h"
#include "storage/storage.h"

namespace higgins::stream {

/// Where one record is: its bucket, the entry holding it and its row in that entry.
struct RowRef {
  BucketId bucket;
  storage::EntryInfo entry;
  uint32_t row = 0;
  uint64_t offset = 0;  // the record's offset in its partition
};

/// A partition's size, for metadata listings.
struct PartitionCount {
  std::string key;
  uint64_t count = 0;
};

/// Some partitions of a stream (in key order) and the totals over all of them.
struct PartitionListing {
  std::vector<PartitionCount> partitions;  // at most the limit asked for
  uint64_t total = 0;                      // partitions with a visible record, listed or not
  uint64_t records = 0;                    // visible records over every partition
};

/// The in-memory index of one stream (docs/architecture.md, "Storage: bucket logs"): per bucket,
/// its entries in sequence order; per partition key, the bucket sequence of each offset (offset o
/// of key k is row sequences[o] of k's bucket). Entries are added when appended and become visible
/// to readers only when their bucket's visible sequence passes them (after they are durable), so a
/// query never returns a record that a crash could take back.
///
/// Thread-safety: one writer (the group committer) calls Add and Publish; any number of readers
/// call the const methods concurrently (a shared mutex guards the maps).
class StreamIndex {
 public:
  explicit StreamIndex(uint32_t buckets);

  /// Adds an entry of `bucket` whose rows have the keys keys[key_indexes[r]], and writes each
  /// row's offset in its partition to offsets[r] (key_indexes.size() values). The entry's
  /// sequences must follow the bucket's previous entry.
  void Add(BucketId bucket, const storage::EntryInfo& entry, const std::vector<std::string>& keys,
           const std::vector<uint32_t>& key_indexes, uint64_t* offsets);

  /// Makes the rows of `bucket` below `sequence` visible to readers.
  void Publish(BucketId bucket, Sequence sequence);

  /// The record at `offset` of partition `key`. Errors: NotFound naming what is missing (the
  /// partition, or the offset with the partition's visible count).
  Result<RowRef> At(std::string_view key, uint64_t offset) const;
  /// The highest visible offset of `key`. Errors: NotFound when the partition has no record.
  Result<uint64_t> Latest(std::string_view key) const;
  /// The first visible offset of `key` committed at or after `timestamp_ms`. Errors: NotFound.
  Result<uint64_t> FirstAtOrAfter(std::string_view key, int64_t timestamp_ms) const;
  /// Records at offsets [from, min(to, visible count, from + limit)). Errors: NotFound for a
  /// missing partition or when `from` is past the partition's end; InvalidArgument if to <= from.
  Result<std::vector<RowRef>> Range(std::string_view key, uint64_t from, uint64_t to,
                                    uint64_t limit) const;

  /// Visible partitions in key order, at most `limit`, with the totals over all of them.
  PartitionListing Partitions(size_t limit) const;

  /// The bucket's next sequence as recorded in the index (rows added so far).
  Sequence NextSequence(BucketId bucket) const;

  // For derived-stream processors, which read a stream bucket by bucket in sequence order.

  /// The bucket's visible rows end here (rows below it are readable).
  Sequence VisibleSequence(BucketId bucket) const;
  /// Visible entries of `bucket` holding rows at or after `from_sequence`, in sequence order,
  /// at most `max_entries`.
  std::vector<storage::EntryInfo> VisibleEntries(BucketId bucket, Sequence from_sequence,
                                                 size_t max_entries) const;
  /// Visible records of partition `key`; 0 when it has none.
  uint64_t Count(std::string_view key) const;
  /// How many records of `key` lie at bucket sequences below `sequence`: the offset of its first
  /// record at or after `sequence`.
  uint64_t OffsetAtSequence(std::string_view key, Sequence sequence) const;
  /// Calls `fn(key, bucket, sequences)` for every partition with visible records, where
  /// `sequences[o]` is the bucket sequence of offset o (visible offsets only). Holds the
  /// index's shared lock: `fn` must not call back into this index.
  void ForEachPartition(const std::function<void(std::string_view key, BucketId bucket,
                                                 std::span<const Sequence> sequences)>& fn) const;

 private:
  struct KeyState {
    BucketId bucket;
    std::vector<Sequence> sequences;
  };
  struct BucketState {
    std::vector<storage::EntryInfo> entries;
    Sequence next_sequence;
    Sequence visible;
  };
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };

  /// Visible offsets of a key (its sequences below its bucket's visible mark).
  uint64_t VisibleCount(const KeyState& key) const;
  RowRef MakeRef(const KeyState& key, uint64_t offset) const;
  const KeyState* FindKey(std::string_view key) const;

  mutable std::shared_mutex mu_;
  std::vector<BucketState> buckets_;
  std::unordered_map<std::string, KeyState, StringHash, std::equal_to<>> keys_;
};

}  // namespace higgins::stream
