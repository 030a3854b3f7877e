#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "broker/broker_api.h"
#include "broker/commit_waiters.h"
#include "common/file_util.h"
#include "config/topography.h"
#include "derived/derived_engine.h"
#include "derived/join_stream.h"
#include "derived/module_registry.h"
#include "higgins/result.h"
#include "storage/storage.h"
#include "stream/group_committer.h"
#include "stream/stream_log.h"
#include "subscription/subscription_manager.h"

namespace higgins::broker {

/// Explicit limits and places of a broker (docs/operations.md, "Flags" and "Limits").
struct BrokerOptions {
  /// Root of everything the broker keeps: topography, modules, index files, file storage.
  std::string dir = "data";
  int64_t max_records_per_request = 1'000'000;
  /// Most records one RANGE query returns.
  uint64_t max_range_records = 10'000;
  /// Most partitions listed per stream in a metadata reply.
  size_t max_listed_partitions = 10'000;
  /// Decoded entries kept in memory per durable stream for reads (EntryCache).
  size_t entry_cache_bytes = 64u << 20;
  /// Largest UDF module accepted, in bytes.
  size_t max_module_bytes = 32u << 20;
  /// Clock for commit timestamps (ms since the Unix epoch); null for the system clock.
  stream::GroupCommitter::Clock clock;
  /// The UDF engine; null makes a V8 engine with `engine_options`.
  std::shared_ptr<udf::Engine> engine;
  udf::EngineOptions engine_options;
  /// Limits of every UDF call (deadline, memory recycling).
  udf::CallLimits call_limits;
  /// Derived-stream worker threads (each with its own V8 isolate).
  int derived_workers = 2;
  /// Longest a produce or query may wait for derived streams to catch up (read-your-writes).
  std::chrono::milliseconds max_wait_for_derived{60'000};
  /// Subscription limits (SubscriptionManager::Options; `dir` is <dir>/subscriptions).
  size_t max_subscriptions = 1'000;
  uint64_t max_subscription_demand = 1'000'000;
  uint64_t max_push_records = 1000;
  std::chrono::milliseconds default_visibility_timeout{30'000};
};

/// The broker's state and operations, independent of the network: the topography (persisted as
/// <dir>/topography.toml), the storages it declares, one StreamLog per stream, uploaded modules
/// (<dir>/modules/<name>.wasm) and the group committer.
///
/// Thread-safety: every method may be called from any thread. Configuration changes take an
/// exclusive lock; produce and queries take a shared one only to find the stream.
class Broker final : public BrokerApi {
 public:
  /// Opens (creating) `options.dir`, locks it (`<dir>/LOCK`), restores the topography and
  /// recovers every stream. Errors: AlreadyExists when another process holds the folder's
  /// lock; IOError; Corruption of the topography or of stored data.
  static Result<std::unique_ptr<Broker>> Open(BrokerOptions options);
  ~Broker() override;  // Shutdown()

  /// Parses and merges a configuration, opens the new streams and persists the topography
  /// (fsynced) before returning. Errors: InvalidArgument listing every problem.
  Result<ConfigurationOutcome> CreateConfiguration(std::string_view toml) override;
  /// Removes a declaration (config::Topography::Delete) and a deleted stream's data.
  Status DeleteConfiguration(std::string_view key) override;
  /// The topography as TOML.
  std::string TopographyToml() const override;
  /// Checks, stores durably and compiles a module (ModuleRegistry::Upload), returning its
  /// version. Errors: InvalidArgument listing every problem, ResourceExhausted, IOError.
  Result<uint64_t> UploadModule(std::string_view name, std::string_view bytes) override;
  bool HasModule(std::string_view name) const;

  /// Read-your-writes for a produce: calls `done(OK)` once every map and reduce stream fed,
  /// directly or through others, by `stream` holds a record at each offset of `produced`, and
  /// every join it feeds has joined them (then the streams fed by that join), or
  /// `done(DeadlineExceeded)` naming the streams still behind after `timeout` (clamped to
  /// max_wait_for_derived). `done` may run on this thread or a processor's.
  void WaitForDerived(std::string_view stream, const stream::ProduceResult& produced,
                      std::chrono::milliseconds timeout, WaitDone done) override;
  /// Read-your-writes for a query of partition `key` of `stream`: when `stream` is derived,
  /// waits until its inputs have caught up (recursively) and it has processed every record
  /// they then hold for `key`; a window waits for its base; a source stream needs no wait.
  void WaitForQuery(std::string_view stream, std::string_view key,
                    std::chrono::milliseconds timeout, WaitDone done) override;

  /// Validates the payload now and commits it through the group committer; `done` runs when
  /// the records are durable and visible, or with the error. `done` may run on this thread
  /// (for errors found before queueing) or on the committer thread.
  void Produce(std::string_view stream, std::string_view payload, stream::PayloadFormat format,
               ProduceDone done) override;
  /// Coalesces each run of consecutive small JSON items (up to 16 KiB each, 1 MiB a run;
  /// larger payloads gain nothing from it) (StreamLog::PrepareJson) into one commit
  /// whose result is split per item (stream::SplitResult); when a run fails to prepare, its
  /// items are produced one by one, so each gets its own answer. Other items go to Produce.
  void ProduceMany(std::string_view stream, std::span<ProduceItem> items) override;

  /// Answers from the stream's index and storage; a window stream's windows are computed from
  /// its base (stream/window_view.h). A range stops at BrokerOptions::max_range_records.
  Result<QueryAnswer> Query(const QueryRequest& request) const override;

  /// Creates a subscription on stream `stream` (SubscriptionManager::Create); it is durable
  /// when the stream's storage is. Errors: NotFound, NotSupported (a window stream),
  /// InvalidArgument, ResourceExhausted, IOError.
  Result<SubscriptionId> CreateSubscription(std::string_view stream, SubscriptionStart start,
                                            std::chrono::milliseconds timeout) override;
  Result<uint64_t> Take(const SubscriptionId& id, std::string_view stream, ConsumerId consumer,
                        uint64_t n, subscription::PushSink sink) override;
  void Acknowledge(const SubscriptionId& id, std::string_view stream,
                   std::vector<subscription::OffsetRange> ranges, AcknowledgeDone done) override;
  Result<subscription::SubscriptionReport> GetSubscription(const SubscriptionId& id,
                                                           std::string_view stream) const override;
  Result<std::vector<subscription::SubscriptionReport>> ListSubscriptions(
      std::string_view stream) const override;
  Status DeleteSubscription(const SubscriptionId& id, std::string_view stream) override;
  void RemoveConsumer(ConsumerId consumer) override;
  void ConsumerReady(ConsumerId consumer) override;
  subscription::SubscriptionManager& subscriptions() { return *subscriptions_; }
  /// What a subscription of `stream` reads: the stream, or a count window stream's closed
  /// windows. Errors: NotFound, NotSupported (a time window stream).
  Result<subscription::SubscriptionManager::StreamRef> SubscriptionRef(
      std::string_view stream) const;

  /// The stream, or NotFound "stream 'x' does not exist".
  Result<std::shared_ptr<stream::StreamLog>> FindStream(std::string_view name) const;

  /// What a window stream is a view of (window_view.h), or nullopt when `name` is not a window
  /// stream.
  struct WindowSource {
    std::string base_name;
    std::shared_ptr<stream::StreamLog> base;
    config::WindowSpec spec;
    /// The base's commit timestamps come from this broker's clock (a source stream), so the
    /// clock closes time windows (QueryWindow's `now_ms`).
    bool base_uses_clock = false;
  };
  std::optional<WindowSource> FindWindow(std::string_view name) const;
  /// The broker's clock: BrokerOptions::clock, or the system clock; ms since the Unix epoch.
  int64_t NowMs() const;

  /// Every stream (name empty) or one. A window stream lists its base's partitions, each with
  /// its number of windows as its count. Errors: NotFound.
  Result<std::vector<StreamInfo>> Metadata(std::string_view name) const override;

  Result<BucketRead> ReadBucket(std::string_view stream, uint32_t bucket, uint64_t from_sequence,
                                uint64_t min_rows, size_t max_entries) const override;
  Result<BucketLogs> DescribeBuckets(std::string_view stream) const override;
  Result<uint64_t> BucketEnd(std::string_view stream, uint32_t bucket) const override;
  Result<std::optional<BucketPosition>> BucketAtTime(std::string_view stream, uint32_t bucket,
                                                     int64_t timestamp_ms) const override;
  Result<RecordPosition> Locate(std::string_view stream, std::string_view key,
                                uint64_t offset) const override;
  Result<uint64_t> WaitForCommit(std::string_view stream, std::function<void()> wake) override;
  void CancelCommitWait(std::string_view stream, uint64_t id) override;

  const BrokerOptions& options() const { return options_; }
  stream::CommitterStats committer_stats() const { return committer_.stats(); }

  /// Commits queued produces, then flushes and syncs index files. Idempotent.
  void Shutdown();

 private:
  /// The source stream `name`, ready for produces. Errors: NotFound, InvalidArgument (derived or
  /// error stream), the stream's failure().
  Result<std::shared_ptr<stream::StreamLog>> ProducibleStream(std::string_view name);
  /// Commits prepared rows: at once on this thread when the stream does not sync, else through
  /// the group committer.
  void Commit(std::shared_ptr<stream::StreamLog> stream, stream::PreparedProduce prepared,
              ProduceDone done);
  /// ProduceMany for a run of at least two JSON items.
  void ProduceCoalesced(const std::shared_ptr<stream::StreamLog>& stream,
                        std::string_view stream_name, std::span<ProduceItem> items);
  /// The stream behind a bucket read. Errors: NotFound (stream, window stream, bucket).
  Result<std::shared_ptr<stream::StreamLog>> BucketStream(std::string_view name,
                                                          uint32_t bucket) const;
  explicit Broker(BrokerOptions options);
  Status Restore();
  Status OpenStorages(const config::Topography& topography);
  Result<std::shared_ptr<stream::StreamLog>> OpenStream(const config::Topography& topography,
                                                        const config::StreamDecl& decl);
  Status PersistTopography(const config::Topography& topography);
  /// Query of `log`, the stream `request.stream`; errors without the stream's name.
  Result<QueryAnswer> QueryLog(const std::shared_ptr<stream::StreamLog>& log,
                               const QueryRequest& request) const;
  /// Sends `log`'s commits to the derived engine, the subscriptions and the commit waiters.
  void ListenToCommits(stream::StreamLog& log);
  /// Metadata partitions of window stream `decl` (under mu_): its base's partitions in key
  /// order, at most max_listed_partitions, each with its number of windows; `records` counts
  /// the windows of all of them.
  stream::PartitionListing WindowPartitions(const config::StreamDecl& decl) const;
  /// Opens the errors stream of a map or reduce stream and starts its processor.
  Status StartProcessor(const config::Topography& topography, const config::StreamDecl& decl,
                        const std::shared_ptr<stream::StreamLog>& derived);
  /// Opens the intent log of a join stream and starts its processor.
  Status StartJoin(const config::StreamDecl& decl,
                   const std::shared_ptr<stream::StreamLog>& derived);
  /// The base, then the join streams, without repeats.
  static std::vector<std::string> JoinParticipants(const config::StreamDecl& decl);
  /// Under mu_: records of the inputs of derived stream `decl` (map, reduce, join) not yet
  /// derived into `derived` (derived::DerivedLag); 0 for the other kinds.
  uint64_t LagLocked(const config::StreamDecl& decl, const stream::StreamLog& derived) const;
  std::string CheckModuleFor(std::string_view name, config::StreamKind kind) const;
  /// A read-your-writes wait: one watch, and how to name it when it times out.
  struct Need {
    std::string what;  // "'stream'" or "'join' (joining 'participant')"
    derived::DerivedEngine::Watch watch;
  };
  struct Deadline {
    derived::DerivedEngine::Clock::time_point at;
    std::chrono::milliseconds timeout;  // for messages
  };
  Deadline MakeDeadline(std::chrono::milliseconds timeout) const;
  /// What `stream` must have processed: `count` records of `key` from `input` (participant
  /// `participant` of `join`, when `join` is set), else `count` records of `key` in `log`.
  static Need ProcessedNeed(const std::string& stream,
                            const std::shared_ptr<stream::StreamLog>& log,
                            const std::shared_ptr<derived::JoinStream>& join, size_t participant,
                            const std::string& input, const std::string& key, uint64_t count);
  void WaitFor(std::vector<Need> needs, Deadline deadline, std::function<void(Status)> done);
  /// Waits until every derived stream fed by `stream`, directly or not, has processed the
  /// first needed[key] records of each key.
  void WaitDownstream(const std::string& stream, const std::map<std::string, uint64_t>& needed,
                      Deadline deadline, std::function<void(Status)> done);
  /// Waits until `stream` and every derived stream it is made from have processed what their
  /// inputs hold for `key` (sources need nothing; a window is a view of its base).
  void WaitUpstream(const std::string& stream, const std::string& key, Deadline deadline,
                    std::function<void(Status)> done);

  BrokerOptions options_;
  std::optional<FileLock> lock_;  // held for the broker's life
  mutable std::shared_mutex mu_;
  /// Woken by every stream's commits (ListenToCommits): outlives the streams.
  CommitWaiters commit_waiters_;
  std::mutex config_mu_;  // serialises configuration changes (held across their I/O)
  config::Topography topography_;
  std::map<std::string, std::unique_ptr<storage::Storage>, std::less<>> storages_;
  std::map<std::string, std::shared_ptr<stream::StreamLog>, std::less<>> streams_;
  /// The errors stream of a map or reduce stream (not in the topography).
  struct ErrorsStream {
    std::string derived;  // the map or reduce stream whose UDF failures it records
    std::shared_ptr<stream::StreamLog> log;
  };
  /// By name, "<derived>/errors" (derived::ErrorsStreamName).
  std::map<std::string, ErrorsStream, std::less<>> errors_streams_;
  /// The processor of every join stream, for read-your-writes waits.
  std::map<std::string, std::shared_ptr<derived::JoinStream>, std::less<>> joins_;
  std::shared_ptr<udf::Engine> engine_;
  std::unique_ptr<derived::ModuleRegistry> modules_;
  std::unique_ptr<subscription::SubscriptionManager> subscriptions_;
  std::unique_ptr<derived::DerivedEngine> derived_;  // before committer_: stopped first
  stream::GroupCommitter committer_;
  bool shut_down_ = false;
};

}  // namespace higgins::broker
