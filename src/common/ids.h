#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/named_type.h"

/// The identifiers and positions the broker's layers pass to one another (docs/architecture.md,
/// "Names and numbers"), each its own type (common/named_type.h) so that none can be passed for
/// another. Protocol adapters and file formats convert at their edge with `value()` and the
/// explicit constructors.
namespace higgins {

/// A stream's number, given once by the topography (never reused: a stream deleted and created
/// again gets another). User streams count from 1; errors streams have bit 62 set (below).
using StreamId = NamedType<struct StreamIdTag, uint64_t>;

/// One bucket (partition group) of a stream: [0, buckets). A partition key's bucket is
/// stream/partitioning.h's BucketOf.
using BucketId = NamedType<struct BucketIdTag, uint32_t>;

/// The buckets [0, count) of a stream, for range-for: `for (BucketId b : Buckets(n))`.
class Buckets {
 public:
  class Iterator {
   public:
    constexpr explicit Iterator(uint32_t n) : n_(n) {}
    constexpr BucketId operator*() const { return BucketId(n_); }
    constexpr Iterator& operator++() {
      ++n_;
      return *this;
    }
    friend constexpr bool operator==(Iterator, Iterator) = default;

   private:
    uint32_t n_;
  };
  constexpr explicit Buckets(uint32_t count) : count_(count) {}
  constexpr Iterator begin() const { return Iterator(0); }
  constexpr Iterator end() const { return Iterator(count_); }

 private:
  uint32_t count_;
};

/// One value per bucket of a stream, indexed by BucketId.
template <typename T>
class PerBucket {
 public:
  PerBucket() = default;
  explicit PerBucket(uint32_t buckets, const T& value = T()) : values_(buckets, value) {}
  void assign(uint32_t buckets, const T& value) { values_.assign(buckets, value); }
  T& operator[](BucketId b) { return values_[b.value()]; }
  const T& operator[](BucketId b) const { return values_[b.value()]; }
  uint32_t size() const { return static_cast<uint32_t>(values_.size()); }

 private:
  std::vector<T> values_;
};

struct SequenceTag {
  static constexpr bool kOrdinal = true;
};
/// A row's position in its bucket log: dense from 0 in commit order, across the partition keys
/// of the bucket.
using Sequence = NamedType<SequenceTag, uint64_t>;

struct OffsetTag {
  static constexpr bool kOrdinal = true;
};
/// A record's position in its partition (one partition key of a stream): dense from 0. What
/// queries, subscriptions and acknowledgements name.
using Offset = NamedType<OffsetTag, uint64_t>;

/// A subscription's id: 16 bytes (the text form is 8-4-4-4-12 lower-case hex).
using SubscriptionId = NamedType<struct SubscriptionIdTag, std::string>;

/// One consumer of subscriptions: a connection (a session of the native protocol, a Kafka or
/// WebSocket client), numbered by its adapter. Its demand and records in flight are its own.
using ConsumerId = NamedType<struct ConsumerIdTag, uint64_t>;

/// The bit that marks an errors stream's id: user stream ids (counted from 1) never reach it.
inline constexpr uint64_t kErrorsStreamIdBit = uint64_t{1} << 62;

/// The id of the errors stream (`<derived>.errors`) of the derived stream with id `derived`.
constexpr StreamId ErrorsStreamIdOf(StreamId derived) {
  return StreamId(derived.value() | kErrorsStreamIdBit);
}
/// Whether `id` names an errors stream.
constexpr bool IsErrorsStreamId(StreamId id) {
  return (id.value() & kErrorsStreamIdBit) != 0;
}

}  // namespace higgins
