#include "stream/stream_index.h"

#include <algorithm>
#include <mutex>

#include "common/quote.h"

namespace higgins::stream {

StreamIndex::StreamIndex(uint32_t buckets) : buckets_(buckets) {}

void StreamIndex::Add(BucketId bucket, const storage::EntryInfo& entry,
                      const std::vector<std::string>& keys,
                      const std::vector<uint32_t>& key_indexes, uint64_t* offsets) {
  std::unique_lock lock(mu_);
  BucketState& b = buckets_[bucket.value()];
  b.entries.push_back(entry);
  b.next_sequence = entry.end_sequence();
  // Look each key up once, on its first row (`keys` may list keys of other buckets too).
  std::vector<KeyState*> states(keys.size(), nullptr);
  for (size_t r = 0; r < key_indexes.size(); ++r) {
    KeyState*& k = states[key_indexes[r]];
    if (k == nullptr) {
      const std::string& key = keys[key_indexes[r]];
      auto it = keys_.find(key);
      if (it == keys_.end()) it = keys_.emplace(key, KeyState{bucket, {}}).first;
      k = &it->second;
    }
    offsets[r] = k->sequences.size();
    k->sequences.push_back(entry.base_sequence + r);
  }
}

void StreamIndex::Publish(BucketId bucket, Sequence sequence) {
  std::unique_lock lock(mu_);
  Sequence& visible = buckets_[bucket.value()].visible;
  visible = std::max(visible, sequence);
}

Sequence StreamIndex::NextSequence(BucketId bucket) const {
  std::shared_lock lock(mu_);
  return buckets_[bucket.value()].next_sequence;
}

uint64_t StreamIndex::VisibleCount(const KeyState& key) const {
  const Sequence visible = buckets_[key.bucket.value()].visible;
  const auto& s = key.sequences;
  if (s.empty() || s.back() < visible) return s.size();
  return static_cast<uint64_t>(std::lower_bound(s.begin(), s.end(), visible) - s.begin());
}

RowRef StreamIndex::MakeRef(const KeyState& key, uint64_t offset) const {
  const Sequence sequence = key.sequences[offset];
  const auto& entries = buckets_[key.bucket.value()].entries;
  auto it =
      std::upper_bound(entries.begin(), entries.end(), sequence,
                       [](Sequence s, const storage::EntryInfo& e) { return s < e.base_sequence; });
  --it;  // the entry whose base is the greatest at or below `sequence`
  return RowRef{key.bucket, *it, static_cast<uint32_t>(sequence - it->base_sequence), offset};
}

const StreamIndex::KeyState* StreamIndex::FindKey(std::string_view key) const {
  auto it = keys_.find(key);
  if (it == keys_.end() || VisibleCount(it->second) == 0) return nullptr;
  return &it->second;
}

Sequence StreamIndex::VisibleSequence(BucketId bucket) const {
  std::shared_lock lock(mu_);
  return buckets_[bucket.value()].visible;
}

std::vector<storage::EntryInfo> StreamIndex::VisibleEntries(BucketId bucket, Sequence from_sequence,
                                                            size_t max_entries) const {
  std::shared_lock lock(mu_);
  const BucketState& b = buckets_[bucket.value()];
  auto it =
      std::upper_bound(b.entries.begin(), b.entries.end(), from_sequence,
                       [](Sequence s, const storage::EntryInfo& e) { return s < e.base_sequence; });
  if (it != b.entries.begin()) --it;  // the entry holding `from_sequence`, if any
  std::vector<storage::EntryInfo> out;
  for (; it != b.entries.end() && out.size() < max_entries; ++it) {
    if (it->end_sequence() <= from_sequence) continue;
    if (it->end_sequence() > b.visible) break;
    out.push_back(*it);
  }
  return out;
}

uint64_t StreamIndex::Count(std::string_view key) const {
  std::shared_lock lock(mu_);
  auto it = keys_.find(key);
  return it == keys_.end() ? 0 : VisibleCount(it->second);
}

uint64_t StreamIndex::OffsetAtSequence(std::string_view key, Sequence sequence) const {
  std::shared_lock lock(mu_);
  auto it = keys_.find(key);
  if (it == keys_.end()) return 0;
  const auto& s = it->second.sequences;
  return static_cast<uint64_t>(std::lower_bound(s.begin(), s.end(), sequence) - s.begin());
}

void StreamIndex::ForEachPartition(
    const std::function<void(std::string_view, BucketId, std::span<const Sequence>)>& fn) const {
  std::shared_lock lock(mu_);
  for (const auto& [key, state] : keys_) {
    const uint64_t count = VisibleCount(state);
    if (count == 0) continue;
    fn(key, state.bucket, std::span<const Sequence>(state.sequences.data(), count));
  }
}

namespace {
Status MissingPartition(std::string_view key) {
  return Status::NotFound("partition " + Quote(key) + " has no records");
}
}  // namespace

Result<RowRef> StreamIndex::At(std::string_view key, uint64_t offset) const {
  std::shared_lock lock(mu_);
  const KeyState* k = FindKey(key);
  if (k == nullptr) return MissingPartition(key);
  const uint64_t count = VisibleCount(*k);
  if (offset >= count) {
    return Status::NotFound("partition " + Quote(key) + " has no offset " + std::to_string(offset) +
                            " (latest is " + std::to_string(count - 1) + ")");
  }
  return MakeRef(*k, offset);
}

Result<uint64_t> StreamIndex::Latest(std::string_view key) const {
  std::shared_lock lock(mu_);
  const KeyState* k = FindKey(key);
  if (k == nullptr) return MissingPartition(key);
  return VisibleCount(*k) - 1;
}

Result<uint64_t> StreamIndex::FirstAtOrAfter(std::string_view key, int64_t timestamp_ms) const {
  std::shared_lock lock(mu_);
  const KeyState* k = FindKey(key);
  if (k == nullptr) return MissingPartition(key);
  // Commit timestamps never decrease along a bucket, hence along a partition's offsets.
  uint64_t lo = 0, hi = VisibleCount(*k);
  const uint64_t count = hi;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (MakeRef(*k, mid).entry.timestamp_ms < timestamp_ms) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo == count) {
    return Status::NotFound("partition " + Quote(key) + " has no record at or after " +
                            std::to_string(timestamp_ms) + " ms");
  }
  return lo;
}

Result<std::vector<RowRef>> StreamIndex::Range(std::string_view key, uint64_t from, uint64_t to,
                                               uint64_t limit) const {
  if (to <= from) {
    return Status::InvalidArgument("empty range: end " + std::to_string(to) +
                                   " is not after start " + std::to_string(from));
  }
  std::shared_lock lock(mu_);
  const KeyState* k = FindKey(key);
  if (k == nullptr) return MissingPartition(key);
  const uint64_t count = VisibleCount(*k);
  if (from >= count) {
    return Status::NotFound("partition " + Quote(key) + " has no offset " + std::to_string(from) +
                            " (latest is " + std::to_string(count - 1) + ")");
  }
  const uint64_t end = std::min({to, count, from + limit});
  std::vector<RowRef> rows;
  rows.reserve(end - from);
  for (uint64_t o = from; o < end; ++o) rows.push_back(MakeRef(*k, o));
  return rows;
}

PartitionListing StreamIndex::Partitions(size_t limit) const {
  std::shared_lock lock(mu_);
  PartitionListing out;
  std::vector<PartitionCount>& all = out.partitions;
  all.reserve(keys_.size());
  for (const auto& [key, state] : keys_) {
    const uint64_t count = VisibleCount(state);
    if (count == 0) continue;
    out.records += count;
    all.push_back({key, count});
  }
  out.total = all.size();
  const size_t n = std::min(limit, all.size());
  std::partial_sort(all.begin(), all.begin() + static_cast<ptrdiff_t>(n), all.end(),
                    [](const PartitionCount& a, const PartitionCount& b) { return a.key < b.key; });
  all.resize(n);
  return out;
}

}  // namespace higgins::stream
