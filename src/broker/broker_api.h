#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/topography.h"
#include "higgins/arrow/schema.h"
#include "higgins/result.h"
#include "stream/stream_index.h"
#include "stream/stream_log.h"
#include "stream/window_view.h"
#include "subscription/subscription_log.h"
#include "subscription/subscription_manager.h"

namespace higgins::broker {

/// Metadata of one stream.
struct StreamInfo {
  std::string name;
  std::string kind;  // "source", "map", ..., or "errors" for a derived stream's errors stream
  config::StreamDecl decl;
  arrow::SchemaPtr schema;
  uint64_t partition_count = 0;
  uint64_t record_count = 0;
  std::vector<stream::PartitionCount> partitions;
  bool partitions_truncated = false;
  /// Map, reduce and join streams: records of their inputs not yet derived
  /// (derived::DerivedLag); 0 for the other kinds.
  uint64_t lag = 0;
};

/// A derived stream added by a configuration starts with the records its inputs already hold
/// (docs/configuration.md, "Derived streams catch up"): `records` of them.
struct CatchUp {
  std::string stream;
  uint64_t records = 0;
  bool operator==(const CatchUp&) const = default;
};

/// What CreateConfiguration added.
struct ConfigurationOutcome {
  config::MergeOutcome merged;
  /// One per added map, reduce or join stream, in the order of merged.added_streams.
  std::vector<CatchUp> catch_ups;
};

/// What a query of one partition asks for (docs/protocol.md, "Queries").
struct QueryRequest {
  enum class Kind : uint8_t {
    kOffset,     // the record at `offset` (a window stream: window number `offset`)
    kLatest,     // the latest record (a window stream: the latest window)
    kRange,      // records at offsets [offset, end), at most the broker's max_range_records
    kTimestamp,  // the first record committed at or after `timestamp_ms`
  };
  std::string stream;
  std::string key;  // the partition key, raw (no wire padding)
  Kind kind = Kind::kLatest;
  Offset offset{0};
  Offset end{UINT64_MAX};
  int64_t timestamp_ms = 0;  // ms since the Unix epoch, >= 0
};

/// A query's records.
struct QueryAnswer {
  arrow::SchemaPtr schema;  // the stream's schema (a window stream: its base's)
  stream::QueryRows rows;
  /// Set for a window stream: the window (`rows` are then its members).
  std::optional<stream::WindowRows> window;
};

using subscription::SubscriptionStart;

/// One log entry of a bucket log, as a Kafka fetch reads it (docs/kafka.md): its rows share
/// one commit timestamp and hold bucket sequences [base_sequence, base_sequence + rows).
struct BucketEntry {
  uint64_t base_sequence = 0;
  int64_t timestamp_ms = 0;  // the commit time, ms since the Unix epoch
  arrow::RecordBatch batch;
  std::vector<std::string> keys;  // per row: its partition key (stream::PartitionKeyOf)
  std::vector<uint64_t> offsets;  // per row: its offset in its partition
};

/// Entries of one bucket log from a sequence on.
struct BucketRead {
  arrow::SchemaPtr schema;
  /// The bucket's visible end: the sequence its next record will get (Kafka's high watermark).
  uint64_t end_sequence = 0;
  /// In sequence order; the first holds the sequence asked for (and may start before it).
  std::vector<BucketEntry> entries;
};

/// The broker's operations as every protocol adapter sees them: typed requests in, Status or
/// Result out, nothing of any protocol. `Broker` implements it; adapters are tested against a
/// fake of it. Units: durations in ms, timestamps in ms since the Unix epoch, offsets dense per
/// partition.
///
/// Thread-safety: every method may be called from any thread. Completion callbacks (`done`) run
/// exactly once, on the calling thread or on one of the broker's threads (docs/threading.md),
/// and must not block.
class BrokerApi {
 public:
  using ProduceDone = std::function<void(Result<stream::ProduceResult>)>;
  using WaitDone = std::function<void(Status)>;
  using AcknowledgeDone = std::function<void(Status, std::vector<subscription::OffsetRange>)>;

  virtual ~BrokerApi() = default;

  // --- Configure ---------------------------------------------------------------------------
  /// Parses and merges a configuration into the topography, persisted before it returns, and
  /// starts the new derived streams. Errors: InvalidArgument listing every problem; IOError.
  virtual Result<ConfigurationOutcome> CreateConfiguration(std::string_view toml) = 0;
  /// Removes a declaration ("stream.x", "schema.x", "storage.x") and a deleted stream's data.
  /// Errors: NotFound, InvalidArgument (still referenced), IOError.
  virtual Status DeleteConfiguration(std::string_view key) = 0;
  /// The topography as TOML.
  virtual std::string TopographyToml() const = 0;
  /// Checks, stores durably and compiles a module; returns its version (1, 2, ...).
  /// Errors: InvalidArgument listing every problem, ResourceExhausted, IOError.
  virtual Result<uint64_t> UploadModule(std::string_view name, std::string_view bytes) = 0;

  // --- Produce -----------------------------------------------------------------------------
  /// Validates `payload` (JSON, NDJSON or Arrow IPC) against the stream's schema and commits it
  /// atomically; `done` gets each row's partition and offset once they are durable and
  /// visible. Errors: NotFound (stream), InvalidArgument (naming the row and field),
  /// NotSupported (a derived stream), ResourceExhausted, IOError.
  virtual void Produce(std::string_view stream, std::string_view payload,
                       stream::PayloadFormat format, ProduceDone done) = 0;
  /// One produce request of ProduceMany. `payload` needs to stay valid only until ProduceMany
  /// returns.
  struct ProduceItem {
    std::string_view payload;
    stream::PayloadFormat format = stream::PayloadFormat::kAuto;
    ProduceDone done;
  };
  /// Produce for several requests to one stream, committed in order. Each item is answered as
  /// if produced alone (its own rows and offsets; a bad payload fails only its own item), but
  /// consecutive small JSON items may be coalesced: their rows appended as one log entry per
  /// bucket (on durable storage under one fsync), so that many one-row requests cost about one
  /// request of many rows. Errors: those of Produce, per item.
  virtual void ProduceMany(std::string_view stream, std::span<ProduceItem> items) = 0;
  /// Read-your-writes for a produce: `done(OK)` once every derived stream fed by `stream` has
  /// processed `produced`, or DeadlineExceeded naming the streams behind after `timeout`.
  virtual void WaitForDerived(std::string_view stream, const stream::ProduceResult& produced,
                              std::chrono::milliseconds timeout, WaitDone done) = 0;

  // --- Query -------------------------------------------------------------------------------
  /// Records of one partition. Errors: NotFound (stream, partition, offset, window),
  /// InvalidArgument (a key the stream's key type cannot hold, a kind a window stream does not
  /// answer), ResourceExhausted (a window over the record limit), OutOfRange.
  virtual Result<QueryAnswer> Query(const QueryRequest& request) const = 0;
  /// Read-your-writes for a query of partition `key`: `done(OK)` once the derived stream (and
  /// what it is made from) has processed what its inputs hold for `key`.
  virtual void WaitForQuery(std::string_view stream, std::string_view key,
                            std::chrono::milliseconds timeout, WaitDone done) = 0;
  /// Every stream (`name` empty) or one. Errors: NotFound.
  virtual Result<std::vector<StreamInfo>> Metadata(std::string_view name) const = 0;

  // --- Bucket logs (the Kafka adapter's partitions: docs/kafka.md) ---------------------------
  /// Visible entries of bucket `bucket` of `stream` from `from_sequence` on, until at least
  /// `min_rows` rows are read or `max_entries` entries (at least one entry when there is one).
  /// A window stream has no bucket logs of its own. Errors: NotFound (stream, window stream,
  /// bucket >= the stream's buckets), OutOfRange (`from_sequence` past the visible end),
  /// IOError and Corruption from storage.
  virtual Result<BucketRead> ReadBucket(std::string_view stream, uint32_t bucket,
                                        uint64_t from_sequence, uint64_t min_rows,
                                        size_t max_entries) const = 0;
  /// How a stream's bucket logs look from outside: how many there are, and whether clients
  /// may produce to the stream (a source stream) or only read it (derived and errors
  /// streams). Cheap: for every Kafka request that names a stream.
  struct BucketLogs {
    uint32_t buckets = 0;
    bool producible = false;
  };
  /// Errors: NotFound (stream, window stream).
  virtual Result<BucketLogs> DescribeBuckets(std::string_view stream) const = 0;
  /// The visible end of bucket `bucket` (the sequence its next record gets). Errors: NotFound.
  virtual Result<uint64_t> BucketEnd(std::string_view stream, uint32_t bucket) const = 0;
  /// The first visible entry of `bucket` committed at or after `timestamp_ms`: its base sequence
  /// and timestamp; nullopt when none is. Errors: NotFound.
  struct BucketPosition {
    uint64_t sequence = 0;
    int64_t timestamp_ms = 0;
  };
  virtual Result<std::optional<BucketPosition>> BucketAtTime(std::string_view stream,
                                                             uint32_t bucket,
                                                             int64_t timestamp_ms) const = 0;
  /// Calls `wake` once, on the thread that publishes it, after the next commit to `stream`
  /// (any bucket) becomes visible: what a long-polling Kafka fetch waits on. `wake` must be
  /// quick and must not block (it posts work). Returns the wait's id for CancelCommitWait.
  /// Errors: NotFound (stream, window stream).
  virtual Result<uint64_t> WaitForCommit(std::string_view stream, std::function<void()> wake) = 0;
  /// Forgets a wait that has not been woken; nothing when it has.
  virtual void CancelCommitWait(std::string_view stream, uint64_t id) = 0;
  /// Where record `offset` of partition `key` is: its bucket and sequence. Errors: NotFound.
  struct RecordPosition {
    uint32_t bucket = 0;
    uint64_t sequence = 0;
  };
  virtual Result<RecordPosition> Locate(std::string_view stream, std::string_view key,
                                        uint64_t offset) const = 0;

  // --- Subscribe and acknowledge -----------------------------------------------------------
  /// Creates a subscription of `stream` with visibility timeout `timeout` (0: the default);
  /// returns its id. Errors: NotFound, NotSupported (a time window stream), InvalidArgument,
  /// ResourceExhausted, IOError.
  virtual Result<SubscriptionId> CreateSubscription(std::string_view stream,
                                                    SubscriptionStart start,
                                                    std::chrono::milliseconds timeout) = 0;
  /// Adds `n` records of demand for consumer `consumer` (a connection) of subscription `id`;
  /// pushes go to `sink`. Returns the consumer's demand now. Errors: NotFound, InvalidArgument,
  /// ResourceExhausted.
  virtual Result<uint64_t> Take(const SubscriptionId& id, std::string_view stream,
                                ConsumerId consumer, uint64_t n, subscription::PushSink sink) = 0;
  /// Acknowledges offset ranges; `done` runs once they are durable, with the ranges that failed.
  virtual void Acknowledge(const SubscriptionId& id, std::string_view stream,
                           std::vector<subscription::OffsetRange> ranges, AcknowledgeDone done) = 0;
  /// One subscription. Errors: NotFound.
  virtual Result<subscription::SubscriptionReport> GetSubscription(
      const SubscriptionId& id, std::string_view stream) const = 0;
  /// Every subscription (`stream` empty) or those of one stream. Errors: NotFound (stream).
  virtual Result<std::vector<subscription::SubscriptionReport>> ListSubscriptions(
      std::string_view stream) const = 0;
  /// Deletes a subscription and its durable state. Errors: NotFound, IOError.
  virtual Status DeleteSubscription(const SubscriptionId& id, std::string_view stream) = 0;
  /// A consumer's connection closed: its undelivered grants go back to the subscription.
  virtual void RemoveConsumer(ConsumerId consumer) = 0;
  /// A consumer's connection can take pushes again (its write queue drained).
  virtual void ConsumerReady(ConsumerId consumer) = 0;
};

}  // namespace higgins::broker
