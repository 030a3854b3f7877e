#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "common/batching_worker.h"
#include "stream/stream_log.h"

namespace higgins::stream {

/// Counters of the committer, read by metrics and tests.
struct CommitterStats {
  uint64_t groups = 0;    // sync rounds
  uint64_t requests = 0;  // produce requests committed
  uint64_t syncs = 0;     // BucketLog::Sync calls
};

/// Commits produce requests in arrival order on one thread, with group commit: it takes every
/// request queued since its last round, appends them all, syncs each bucket log written once,
/// then publishes the records and completes the requests. So concurrent producers share one
/// fsync, and a request's completion means its records are durable (on durable storage) and
/// visible to queries. The thread and its queue are a BatchingWorker (common/batching_worker.h):
/// one round per wake-up, over everything queued.
///
/// Thread-safety: Submit may be called from any thread; `done` runs on the committer thread and
/// must not block.
class GroupCommitter {
 public:
  using Done = std::function<void(Result<ProduceResult>)>;
  using Clock = std::function<int64_t()>;  // ms since the Unix epoch
  /// The system clock in ms since the Unix epoch.
  static int64_t SystemNowMs();

  explicit GroupCommitter(Clock clock = nullptr);
  ~GroupCommitter();  // Stop()

  /// Queues a commit. After Stop, `done` gets an error at once.
  void Submit(std::shared_ptr<StreamLog> stream, PreparedProduce prepared, Done done);

  /// Commits what is queued, then stops the thread. Idempotent.
  void Stop();

  CommitterStats stats() const;

 private:
  struct Job {
    std::shared_ptr<StreamLog> stream;
    PreparedProduce prepared;
    Done done;
  };
  void CommitGroup(std::vector<Job>& jobs);

  Clock clock_;
  mutable std::mutex mu_;  // over stats_
  CommitterStats stats_;
  BatchingWorker<Job> worker_;  // last: its thread uses the members above
};

}  // namespace higgins::stream
