#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

namespace higgins::bench {

/// Counts of non-negative values (microseconds, say) in a fixed amount of memory, whatever their
/// number: exact below 128, then in buckets whose width is 1/64 to 1/128 of their value (a
/// quantile is off by less than 1.6 %). The largest value is kept exactly. Not thread-safe: one
/// per thread, merged at the end.
class LatencyHistogram {
 public:
  void Add(uint64_t value) {
    ++counts_[Index(value)];
    ++count_;
    max_ = std::max(max_, value);
  }

  void Merge(const LatencyHistogram& other) {
    for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
    count_ += other.count_;
    max_ = std::max(max_, other.max_);
  }

  uint64_t count() const { return count_; }
  uint64_t max() const { return max_; }

  /// The q-quantile (0 < q <= 1, nearest rank): the lower bound of its bucket, or the largest
  /// value for q = 1; 0 when empty.
  uint64_t Quantile(double q) const {
    if (count_ == 0) return 0;
    const auto rank = std::clamp<uint64_t>(
        static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_))), 1, count_);
    if (rank == count_) return max_;
    uint64_t seen = 0;
    for (size_t i = 0; i < counts_.size(); ++i) {
      seen += counts_[i];
      if (seen >= rank) return std::min(LowerBound(i), max_);
    }
    return max_;
  }

 private:
  // Values below 2^7 have a bucket each; above, a value v with its highest bit at b >= 7 goes
  // to bucket 64 * s + (v >> s) with s = b - 6, so that v >> s is in [64, 128).
  static constexpr int kExactBits = 7;
  static constexpr size_t kBuckets = 64 * (64 - kExactBits + 1) + 128;

  static size_t Index(uint64_t v) {
    if (v < (uint64_t{1} << kExactBits)) return static_cast<size_t>(v);
    const int shift = std::bit_width(v) - kExactBits;
    return static_cast<size_t>(64 * shift) + static_cast<size_t>(v >> shift);
  }

  static uint64_t LowerBound(size_t index) {
    if (index < (size_t{1} << kExactBits)) return index;
    const size_t shift = index / 64 - 1;
    return static_cast<uint64_t>(index - 64 * shift) << shift;
  }

  std::vector<uint64_t> counts_ = std::vector<uint64_t>(kBuckets);
  uint64_t count_ = 0;
  uint64_t max_ = 0;
};

}  // namespace higgins::bench
