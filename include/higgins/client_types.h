#pragma once

// Values returned by higgins::Client (include/higgins/client.h).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "higgins/arrow/record_batch.h"
#include "higgins/arrow/schema.h"

namespace higgins {

/// Where a produce put its rows. Rows are listed in request order.
struct ProduceResult {
  /// Distinct partition keys of the request (a string key's bytes, an integer key in decimal),
  /// in first-seen order.
  std::vector<std::string> partitions;
  /// For row i: partitions[partition_indexes[i]] is its key and offsets[i] its offset.
  std::vector<uint32_t> partition_indexes;
  std::vector<uint64_t> offsets;
  /// Commit time shared by every row, ms since the Unix epoch.
  uint64_t timestamp_ms = 0;

  size_t num_rows() const { return offsets.size(); }
  const std::string& partition_of(size_t row) const { return partitions[partition_indexes[row]]; }
};

/// What one window of a window stream covers (docs/configuration.md, "Window streams").
struct WindowBounds {
  /// No record will ever join or leave the window.
  bool closed = false;
  /// False: a count window over the base offsets [start, end) (an open window's end lies beyond
  /// the partition's end). True: a time window over the commit timestamps [start, end), ms since
  /// the Unix epoch.
  bool by_time = false;
  uint64_t start = 0;
  uint64_t end = 0;
  /// Base offset of the first member; the members are consecutive base offsets. For an empty
  /// window (a time window in a gap), the offset of the first base record after it.
  uint64_t first_offset = 0;
};

/// Consecutive records of one partition, decoded: row i is the record at offset + i. For a window
/// stream, one window: `offset` is the window's number, the rows are its members (the base
/// records at offsets window->first_offset + i, possibly none) and `window` is set.
struct Records {
  std::string stream;
  std::string partition_key;
  /// Offset of the first row; for a window stream, the window's number.
  uint64_t offset = 0;
  /// Commit time of each row, ms since the Unix epoch.
  std::vector<uint64_t> timestamps_ms;
  /// The rows, with the stream's schema.
  arrow::RecordBatch batch;
  /// Set for a window of a window stream.
  std::optional<WindowBounds> window;
  /// In a subscription delivery: these records were pushed before and not acknowledged within
  /// the visibility timeout (or their consumer disconnected).
  bool redelivered = false;

  int64_t num_rows() const { return batch.num_rows(); }
};

struct PartitionInfo {
  std::string key;
  /// Records in the partition; its latest offset is count - 1.
  uint64_t count = 0;
};

struct StreamInfo {
  std::string name;
  /// "source", "map", "reduce", "join" or "window".
  std::string kind;
  std::string schema_name;
  std::string partition_key;
  std::string storage;
  uint32_t buckets = 1;
  uint64_t partition_count = 0;
  uint64_t record_count = 0;
  /// Up to the broker's listing limit, in key order; partitions_truncated when there are more.
  std::vector<PartitionInfo> partitions;
  bool partitions_truncated = false;
  /// The stream's Arrow schema (field order as declared).
  arrow::SchemaPtr schema;
  /// Map, reduce and join streams: records of their inputs not yet derived (0 once caught up);
  /// 0 for the other kinds.
  uint64_t lag = 0;
};

/// A derived stream that a configuration added, and the records its inputs already held, which
/// it processes first (docs/configuration.md, "Derived streams catch up").
struct CatchUp {
  std::string stream;
  uint64_t records = 0;
  bool operator==(const CatchUp&) const = default;
};

/// Where a new subscription starts, in every partition of its stream (docs/architecture.md,
/// "Subscriptions").
struct SubscriptionStart {
  enum class Kind {
    kBeginning,  // offset 0
    kCurrent,    // after the records each partition holds when the subscription is created
    kOffset,     // `value` in every partition
    kTimestamp,  // each partition's first record committed at or after `value` (ms since epoch)
  };
  // kCurrent and kTimestamp are worked out once, for the partitions that exist when the
  // subscription is created; partitions created later start at offset 0.
  Kind kind = Kind::kBeginning;
  uint64_t value = 0;

  static SubscriptionStart Beginning() { return {Kind::kBeginning, 0}; }
  static SubscriptionStart Current() { return {Kind::kCurrent, 0}; }
  static SubscriptionStart Offset(uint64_t offset) { return {Kind::kOffset, offset}; }
  static SubscriptionStart Timestamp(uint64_t ms) { return {Kind::kTimestamp, ms}; }
};

/// Records pushed to this connection by a subscription it takes from.
struct Delivery {
  /// The subscription, as a UUID in text ("8-4-4-4-12" lower-case hex).
  std::string subscription_id;
  /// Consecutive records of one partition (records.redelivered tells a redelivery).
  Records records;
};

/// Offsets [start, end) of one partition, to acknowledge.
struct AckRange {
  std::string partition_key;
  uint64_t start = 0;
  uint64_t end = 0;
};

/// One partition of a subscription.
struct SubscriptionPartition {
  std::string key;
  /// Every offset below it is acknowledged (or lies before the subscription's start).
  uint64_t watermark = 0;
  /// Records in the partition.
  uint64_t count = 0;
  /// The next offset pushed for the first time.
  uint64_t next_offset = 0;
  /// Pushed and not acknowledged (with a consumer, or waiting to be pushed again).
  uint64_t unacknowledged = 0;
  /// Acknowledged above the watermark.
  uint64_t acknowledged_above = 0;
};

/// One consumer (connection) of a subscription.
struct SubscriptionConsumer {
  uint64_t id = 0;
  /// Records asked for (Take) and not pushed yet.
  uint64_t demand = 0;
  /// Pushed to it and not acknowledged.
  uint64_t in_flight = 0;
};

struct SubscriptionInfo {
  std::string id;  // UUID text
  std::string stream;
  SubscriptionStart::Kind start = SubscriptionStart::Kind::kBeginning;
  uint64_t visibility_timeout_ms = 0;
  /// Kept across restarts (the stream's storage is durable).
  bool durable = false;
  uint64_t consumers = 0;
  /// Pushed and not acknowledged, over every partition.
  uint64_t unacknowledged = 0;
  /// Not pushed yet, over every partition (the lag).
  uint64_t pending = 0;
  /// Filled by GetSubscription (empty in listings): partitions in key order, up to the broker's
  /// listing limit (partitions_truncated then), and the consumers.
  std::vector<SubscriptionPartition> partitions;
  bool partitions_truncated = false;
  std::vector<SubscriptionConsumer> consumer_list;
};

}  // namespace higgins
