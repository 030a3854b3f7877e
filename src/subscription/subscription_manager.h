#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/batching_worker.h"
#include "common/ids.h"
#include "config/configuration.h"
#include "higgins/result.h"
#include "stream/stream_index.h"
#include "stream/stream_log.h"
#include "subscription/subscription_log.h"
#include "subscription/subscription_state.h"

namespace higgins::subscription {

/// What a window of a window stream covers (window_view.h's WindowRows without its members).
struct WindowBoundsInfo {
  bool closed = false;
  bool by_time = false;
  uint64_t start = 0;
  uint64_t end = 0;
};

/// Records read for a push: consecutive records of one partition from `offset`, or one window
/// (`offset` is its number, `rows` its members, `window` its bounds).
struct SourceRecords {
  stream::QueryRows rows;
  uint64_t offset = 0;
  std::optional<WindowBoundsInfo> window;
};

/// What a subscription reads: one stream's partitions and records (or a window stream's closed
/// windows). Thread-safe.
class SubscriptionSource {
 public:
  virtual ~SubscriptionSource() = default;
  /// What can be pushed of partition `key`: [0, Count(key)) (0 when it has nothing).
  virtual uint64_t Count(std::string_view key) const = 0;
  /// Every partition with its count, in key order.
  virtual std::vector<stream::PartitionCount> Partitions() const = 0;
  /// Offsets [from, to) of `key`, all below Count(key); at most MaxPerRead() of them.
  virtual Result<SourceRecords> Read(std::string_view key, uint64_t from, uint64_t to) const = 0;
  /// Most offsets one Read returns.
  virtual uint64_t MaxPerRead() const { return UINT64_MAX; }
  /// The first offset of `key` committed at or after `timestamp_ms`; Count(key) when none is.
  virtual uint64_t FirstAtOrAfter(std::string_view key, int64_t timestamp_ms) const = 0;
};

/// A StreamLog as a SubscriptionSource.
std::shared_ptr<SubscriptionSource> MakeStreamSource(std::shared_ptr<stream::StreamLog> log);
/// The closed windows of a count window over `base` (window w is offset w; it is pushed once
/// closed, i.e. once the base partition holds w·S + I records). A timestamp start begins at the
/// first window starting at or after the base's first record at or after the timestamp.
std::shared_ptr<SubscriptionSource> MakeCountWindowSource(std::shared_ptr<stream::StreamLog> base,
                                                          const config::WindowSpec& spec,
                                                          uint64_t max_records);

/// Records pushed to a consumer.
struct SubscriptionPush {
  SubscriptionId subscription_id;
  std::string stream;
  std::string key;
  SourceRecords records;
  bool redelivered = false;
  /// Not OK for the last push of a subscription that ended (it or its stream was deleted):
  /// no records, the reason instead.
  Status ended;
};
/// A consumer's connection, as the delivery thread sees it.
struct PushSink {
  /// Sends pushes of one subscription, in order: every grant of a delivery round for this
  /// consumer (many when it is behind, typically one when it is live), so that they can travel
  /// in one frame. Called on the delivery thread with at least one push; must not block.
  std::function<void(std::vector<SubscriptionPush>)> push;
  /// Whether the connection takes more pushes now (its unsent backlog is under its limit);
  /// null: always. A consumer that is not ready gets nothing until ConsumerReady.
  std::function<bool()> ready;
};

/// Where a new subscription starts (docs/protocol.md, "Subscriptions").
struct SubscriptionStart {
  SubscriptionStartKind kind = SubscriptionStartKind::kBeginning;
  uint64_t value = 0;  // the offset (kOffset) or ms since the Unix epoch (kTimestamp)
};

/// A subscription as reported by Get and List.
struct SubscriptionReport {
  SubscriptionDecl decl;
  bool durable = false;
  uint64_t consumers = 0;
  uint64_t unacknowledged = 0;
  uint64_t pending = 0;
  std::vector<SubscriptionState::PartitionStats> partitions;  // Get only
  bool partitions_truncated = false;
  std::vector<SubscriptionState::ConsumerStats> consumer_list;  // Get only
};

/// Every subscription of the broker (docs/architecture.md, "Subscriptions"; docs/protocol.md,
/// "Subscriptions"): creates them, keeps their durable logs (`<dir>/<id hex>.log`, for streams on
/// durable storage), learns of commits, and pushes records to consumers with demand from one
/// delivery thread, which also expires visibility timeouts. Acknowledgements are made durable by
/// one sync thread, which fsyncs each log once for every acknowledgement written before (group
/// sync). Both threads are BatchingWorkers (common/batching_worker.h): the delivery thread is
/// woken by whatever makes a grant possible and wakes itself at the next visibility timeout; the
/// sync thread takes every queued acknowledgement per round.
///
/// Thread-safety: every method may be called from any thread.
class SubscriptionManager {
 public:
  using Clock = SubscriptionState::Clock;
  struct Options {
    /// Folder of the subscription logs.
    std::string dir;
    size_t max_subscriptions = 1'000;
    /// A consumer's demand is capped here (a take beyond it saturates).
    uint64_t max_demand = 1'000'000;
    /// Most records in one push (one partition's consecutive records).
    uint64_t max_push_records = 1000;
    std::chrono::milliseconds default_timeout{30'000};
    std::chrono::milliseconds max_timeout{86'400'000};
    /// Most partitions reported by Get.
    size_t max_listed_partitions = 10'000;
  };

  explicit SubscriptionManager(Options options);
  ~SubscriptionManager();  // Stop()
  /// Starts the delivery thread (the sync thread runs from construction). Not concurrently with
  /// Stop.
  void Start();
  /// Stops the delivery thread (a round in progress finishes; nothing is pushed after), then the
  /// sync thread, which first syncs and answers the acknowledgements queued; later ones fail
  /// with IOError "the broker is shutting down". Idempotent.
  void Stop();

  /// The stream a subscription reads: its source, its id, and whether it is durable.
  struct StreamRef {
    std::shared_ptr<SubscriptionSource> source;
    StreamId stream_id;
    bool durable = false;
    /// The stream whose commits change what the source holds: the stream itself, or a window
    /// stream's base.
    std::string follows;
    /// Acknowledgements are fsynced before they are answered (the storage's `fsync` option:
    /// without it, they are as durable as the records, written to the operating system).
    bool sync = true;
  };
  /// `stream`'s current StreamRef, or nullopt when it no longer exists.
  using Resolver = std::function<std::optional<StreamRef>(const std::string& stream)>;
  /// Reopens every subscription log in the folder; logs of streams that no longer exist (or
  /// were created again since) are removed. Errors: IOError, Corruption of a log.
  Status Restore(const Resolver& resolve);

  /// Creates a subscription and returns its id. A `timeout` (the visibility timeout) of 0
  /// takes the default. Errors: InvalidArgument (a timeout over the maximum),
  /// ResourceExhausted (too many subscriptions), IOError.
  Result<SubscriptionId> Create(const std::string& stream, const StreamRef& ref,
                                SubscriptionStart start, std::chrono::milliseconds timeout);
  /// Adds `n` to `consumer`'s demand (the consumer's pushes go to `sink`); returns the demand.
  /// `stream` empty or the subscription's. Errors: NotFound.
  Result<uint64_t> Take(const SubscriptionId& id, std::string_view stream, ConsumerId consumer,
                        uint64_t n, PushSink sink);
  /// Acknowledges `ranges` (SubscriptionState::Acknowledge) and calls `done` once durable (on
  /// this thread or the sync thread). Errors: NotFound, InvalidArgument (`failed` lists the
  /// ranges), IOError.
  void Acknowledge(const SubscriptionId& id, std::string_view stream,
                   std::vector<OffsetRange> ranges,
                   std::function<void(Status, std::vector<OffsetRange> failed)> done);
  Result<SubscriptionReport> Get(const SubscriptionId& id, std::string_view stream) const;
  /// Subscriptions of `stream` (every one when empty), without partitions and consumers.
  std::vector<SubscriptionReport> List(std::string_view stream) const;
  /// Errors: NotFound; IOError removing the log (the subscription is gone regardless).
  Status Delete(const SubscriptionId& id, std::string_view stream);
  /// The stream was deleted: so are its subscriptions.
  void DropStream(std::string_view stream);
  /// A consumer's connection closed: its demand goes, its records in flight are pushed again.
  void RemoveConsumer(ConsumerId consumer);
  /// A consumer's connection that was not ready (PushSink::ready) has room again.
  void ConsumerReady(ConsumerId consumer);
  /// Records of `keys` were committed to `stream` (StreamLog's commit listener). Quick.
  void OnCommit(const std::string& stream, const std::vector<std::string_view>& keys);

  /// The id as text: 8-4-4-4-12 lower-case hex.
  static std::string IdText(const SubscriptionId& id);

 private:
  struct Subscription {
    SubscriptionDecl decl;
    StreamRef ref;
    std::unique_ptr<SubscriptionLog> log;  // null when not durable
    SubscriptionState state;
    std::map<std::string, uint64_t, std::less<>> start_offsets;  // decl.start_offsets
    std::map<ConsumerId, PushSink> sinks;
    bool queued = false;               // in work_
    std::atomic<bool> deleted{false};  // set under mu_; read by the delivery thread without it
    explicit Subscription(std::chrono::milliseconds timeout) : state(timeout) {}
  };
  using SubPtr = std::shared_ptr<Subscription>;

  Result<SubPtr> Find(const SubscriptionId& id, std::string_view stream) const;  // under mu_
  uint64_t StartOf(const Subscription& sub, std::string_view key) const;
  void AddPartitions(Subscription& sub);  // every partition of the source, with its count
  void Schedule(const SubPtr& sub);       // under mu_
  void Forget(const SubPtr& sub);         // under mu_: removes from the maps
  /// Tells the consumers of a forgotten subscription that it ended (delivery thread).
  static void TellEnded(Subscription& sub, const Status& why);
  /// One round of the delivery thread: expiries, grants, pushes; when to run again.
  BatchingWorker<>::NextRun DeliverRound();
  struct SyncRequest;
  /// One round of the sync thread: one sync per log for every request of `batch`.
  static BatchingWorker<>::NextRun SyncRound(std::vector<SyncRequest>& batch);
  static SubscriptionReport Report(const Subscription& sub, bool detailed, size_t limit);

  const Options options_;
  mutable std::mutex mu_;
  std::map<SubscriptionId, SubPtr> subscriptions_;
  std::map<std::string, std::vector<SubPtr>, std::less<>> by_stream_;
  std::map<std::string, std::vector<SubPtr>, std::less<>> by_follows_;  // StreamRef::follows
  std::deque<SubPtr> work_;
  /// Subscriptions deleted whose consumers the delivery thread must tell (after the pushes it
  /// is making, so that nothing follows the news).
  std::vector<std::pair<SubPtr, Status>> ended_;
  std::optional<Clock::time_point> next_expiry_;
  bool stopping_ = false;

  struct SyncRequest {
    SubPtr sub;
    uint64_t position = 0;
    std::function<void(Status, std::vector<OffsetRange>)> done;
  };
  BatchingWorker<SyncRequest> syncer_{SyncRound};
  /// Made by Start (under mu_, like started_); Schedule wakes it.
  std::unique_ptr<BatchingWorker<>> delivery_;
  bool started_ = false;
};

}  // namespace higgins::subscription
