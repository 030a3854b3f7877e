#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/ids.h"
#include "higgins/result.h"

namespace higgins::subscription {

/// Offsets [start, end) of one partition.
struct OffsetRange {
  std::string key;
  uint64_t start = 0;
  uint64_t end = 0;
  friend bool operator==(const OffsetRange&, const OffsetRange&) = default;
};

/// Records handed to one consumer: offsets [start, end) of partition `key`.
struct Grant {
  ConsumerId consumer{0};
  std::string key;
  uint64_t start = 0;
  uint64_t end = 0;
  bool redelivered = false;
};

/// The delivery bookkeeping of one subscription (docs/architecture.md, "Subscriptions"), without
/// I/O or threads: what each partition holds, what was pushed to whom and until when, what is
/// acknowledged, and each consumer's demand. The caller reads records, pushes them, persists
/// acknowledgements and drives the clock.
///
/// Per partition, every offset o with watermark <= o < next is exactly one of: acknowledged,
/// in flight (pushed to one consumer, with a deadline), or waiting to be pushed again. Offsets
/// below the watermark are acknowledged (or lie before the subscription's start); offsets from
/// `next` on were never pushed (since the last restart: after one, `next` restarts at the
/// watermark and skips acknowledged ranges, so unacknowledged records are pushed again and
/// acknowledged ones never are).
///
/// Delivery order: partitions with records to push take turns (a partition that still has some
/// after a grant goes to the back of the line); within a partition, records waiting to be pushed
/// again come first, lowest offset first, then new records in offset order. Consumers with
/// demand take turns too.
///
/// Thread-safety: none (the subscription manager holds a lock).
class SubscriptionState {
 public:
  using Clock = std::chrono::steady_clock;

  explicit SubscriptionState(std::chrono::milliseconds visibility_timeout)
      : timeout_(visibility_timeout) {}

  /// Whether partition `key` is known (NoteAvailable was called for it).
  bool HasPartition(std::string_view key) const;
  /// Declares partition `key` with its first offset `start` (where the subscription starts in
  /// it). Nothing happens when it is already known.
  void AddPartition(std::string_view key, uint64_t start);
  /// The partition now holds `count` records (counts never decrease). Known partitions only.
  void NoteAvailable(std::string_view key, uint64_t count);

  /// Marks [start, end) of a known partition acknowledged without checks (restoring the
  /// durable state at restart, before any grant).
  void RestoreAcknowledged(std::string_view key, uint64_t start, uint64_t end);
  /// Ends a restore, once every partition's count is noted: records that existed then may have
  /// been pushed before the restart, so acknowledging them is accepted.
  void FinishRestore();

  /// Adds `n` to the consumer's demand (creating the consumer), saturating at `max_demand`;
  /// returns the demand after.
  uint64_t Take(ConsumerId consumer, uint64_t n, uint64_t max_demand);
  /// Removes a consumer: the records in flight with it wait to be pushed again.
  void RemoveConsumer(ConsumerId consumer);
  bool HasConsumer(ConsumerId consumer) const { return consumers_.count(consumer) != 0; }

  /// The next grant, when a consumer has demand (and `eligible(consumer)`, when given: its
  /// connection takes pushes now) and a partition has records to push: at most
  /// min(demand, max_records) consecutive offsets, in flight from then until now + timeout.
  std::optional<Grant> NextGrant(Clock::time_point now, uint64_t max_records,
                                 const std::function<bool(ConsumerId)>& eligible = nullptr);

  /// Checks every range: not empty, of a known partition, and nothing at or beyond the
  /// partition's next offset (never pushed) or, after a restart, the records the partition
  /// held then (which may have been pushed before it). Errors: InvalidArgument naming each bad
  /// range as "partition 'k' offsets A to B: why" (inclusive; `*failed` gets them), and nothing is
  /// changed. On success, every range is acknowledged
  /// (ranges below the watermark or already acknowledged are no-ops).
  Status Acknowledge(const std::vector<OffsetRange>& ranges, std::vector<OffsetRange>* failed);

  /// Records in flight past their deadline wait to be pushed again. Returns the earliest
  /// deadline still pending, if any.
  std::optional<Clock::time_point> Expire(Clock::time_point now);

  /// Whether NextGrant could give something now.
  bool CanGrant() const;

  struct PartitionStats {
    std::string key;
    uint64_t start = 0;
    uint64_t watermark = 0;
    uint64_t count = 0;
    uint64_t next = 0;
    uint64_t unacknowledged = 0;
    uint64_t acknowledged_above = 0;
  };
  struct ConsumerStats {
    ConsumerId id{0};
    uint64_t demand = 0;
    uint64_t in_flight = 0;
  };
  /// Partitions in key order, at most `limit`.
  std::vector<PartitionStats> Partitions(size_t limit) const;
  std::vector<ConsumerStats> Consumers() const;
  size_t partition_count() const { return partitions_.size(); }
  /// Records pushed and not acknowledged, over every partition.
  uint64_t Unacknowledged() const;
  /// Records never pushed (from `next` to the count; acknowledged ranges there are excluded).
  uint64_t Pending() const;
  /// The watermark and the acknowledged ranges above it of every partition (for snapshots).
  struct AckState {
    std::string key;
    uint64_t watermark = 0;
    std::vector<std::pair<uint64_t, uint64_t>> acknowledged;
  };
  std::vector<AckState> Snapshot() const;

  std::chrono::milliseconds visibility_timeout() const { return timeout_; }

 private:
  using Intervals = std::map<uint64_t, uint64_t>;  // start -> end, disjoint, not adjacent-merged
  struct InFlight {
    uint64_t end = 0;
    ConsumerId consumer{0};
    Clock::time_point deadline;
  };
  struct Partition {
    uint64_t start = 0;
    uint64_t watermark = 0;
    uint64_t next = 0;
    uint64_t count = 0;
    uint64_t restored_count = 0;             // count at a restart (FinishRestore)
    Intervals acknowledged;                  // above the watermark, merged
    std::map<uint64_t, InFlight> in_flight;  // start -> interval
    Intervals redeliver;                     // merged
    bool queued = false;                     // in ready_
  };
  struct Consumer {
    uint64_t demand = 0;
    uint64_t in_flight = 0;
  };

  bool Ready(const Partition& p) const;
  void Enqueue(const std::string& key, Partition& p);
  /// Moves `next` past acknowledged ranges starting at it.
  static void SkipAcknowledged(Partition& p);
  /// Removes [start, end) from the in-flight intervals and the redelivery set of `p`.
  void Remove(Partition& p, const std::string& key, uint64_t start, uint64_t end);
  static void AddInterval(Intervals& set, uint64_t start, uint64_t end);
  static uint64_t Covered(const Intervals& set);
  void AdvanceWatermark(Partition& p);

  std::chrono::milliseconds timeout_;
  std::map<std::string, Partition, std::less<>> partitions_;
  std::deque<std::string> ready_;  // partitions with records to push, in turn
  std::map<ConsumerId, Consumer> consumers_;
  ConsumerId last_consumer_{0};  // round robin: the consumer served last
  /// In-flight deadlines, possibly stale (checked against the interval when due).
  std::multimap<Clock::time_point, std::pair<std::string, uint64_t>> deadlines_;
};

}  // namespace higgins::subscription
