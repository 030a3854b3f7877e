#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/deadline_timer.h"
#include "common/thread_pool.h"
#include "derived/derived_stream.h"
#include "higgins/result.h"
#include "udf/engine.h"

namespace higgins::derived {

/// Runs the derived-stream processors: a pool of worker threads, each with its own UDF Sandbox
/// (for V8, an isolate), picks streams that have unprocessed base records and steps them; a
/// stream is stepped by one worker at a time. Commits schedule their dependents at once, so the
/// lag of a derived stream is one processing step when workers are free.
///
/// It also answers read-your-writes waits (WaitUntil): a wait needs some (stream, partition key)
/// pairs to reach record counts. Pending needs are indexed by pair and ordered by count, so a
/// commit reads each of its keys' counts once and touches only the needs it meets: its cost
/// does not grow with the number of pending waits. Waits fail with DeadlineExceeded when their
/// deadline passes.
///
/// Threads: the workers are a ThreadPool (common/thread_pool.h) whose start and stop hooks make
/// and release each worker's Sandbox on its own thread; a scheduled stream is one task. The
/// deadlines of waits are callbacks of a DeadlineTimer (common/deadline_timer.h).
///
/// Thread-safety: every method may be called from any thread.
class DerivedEngine {
 public:
  struct Options {
    int workers = 2;
    /// Chunks one worker processes for a stream before it lets other streams run.
    int calls_per_turn = 16;
  };
  using Clock = std::chrono::steady_clock;

  DerivedEngine(udf::Engine* engine, Options options);
  ~DerivedEngine();  // Stop()

  /// Starts the workers; each creates its Sandbox. Errors: those of Engine::NewSandbox.
  Status Start();
  /// Lets running steps finish, then stops the workers; pending waits fail with an IOError
  /// "the broker is shutting down". Idempotent.
  void Stop();

  /// Adds a processor (scheduled at once: it may have a backlog) fed by commits of `inputs`.
  void Add(std::shared_ptr<DerivedProcessor> stream, std::vector<std::string> inputs);
  /// Removes a processor, waiting for a step in progress to end.
  void Remove(const std::string& name);
  /// A commit to `stream` of records with partition keys `keys` (called by StreamLog's commit
  /// listener): schedules the processors fed by it and answers the waits it satisfies.
  void OnCommit(const std::string& stream, const std::vector<std::string_view>& keys);
  /// Answers the waits on (`stream`, key) for `keys` without scheduling anything: for progress
  /// that is not a stream's commit (a join's per-participant progress, JoinProgressId).
  void Notify(std::string_view stream, std::span<const std::string> keys);

  /// What a wait needs: partition `key` of `stream` holding at least `count` records.
  struct Watch {
    std::string stream;
    std::string key;
    uint64_t count = 0;
    /// The partition's current record count; called under the engine's wait lock (it must
    /// only read a stream index). Watches of the same (stream, key) must count the same thing.
    std::function<uint64_t()> have;
  };
  /// Calls `done(OK)` once every watch is met (checked now and after each commit to its
  /// partition), or `done(DeadlineExceeded(describe()))` at `deadline`.
  void WaitUntil(std::vector<Watch> watches, Clock::time_point deadline,
                 std::function<std::string()> describe, std::function<void(Status)> done);
  /// Pending waits (for tests and metadata).
  size_t PendingWaits() const;

  /// Processors' counters, by derived stream name: {processed, failed}.
  std::map<std::string, std::pair<uint64_t, uint64_t>> Counters() const;

 private:
  struct Slot {
    std::shared_ptr<DerivedProcessor> stream;
    std::vector<std::string> inputs;
    bool queued = false;
    bool running = false;
    bool again = false;  // a commit arrived while running
    bool removed = false;
  };
  /// The pending needs on one (stream, key): waiter id and index into its `needs`, by count.
  struct Partition {
    std::function<uint64_t()> have;
    std::multimap<uint64_t, std::pair<uint64_t, size_t>> by_count;
  };
  struct Need {
    std::string id;  // WatchId, the key of watching_
    std::multimap<uint64_t, std::pair<uint64_t, size_t>>::iterator entry;
    bool met = false;
  };
  struct Waiter {
    size_t unmet = 0;
    std::vector<Need> needs;
    std::function<std::string()> describe;
    std::function<void(Status)> done;
    DeadlineTimer::Id timer = DeadlineTimer::kNone;  // its deadline's callback (Expire)
  };
  struct Finished {
    Waiter waiter;
    Status status;
  };

  /// One turn of `slot` on worker `worker` (a pool task): up to calls_per_turn chunks.
  void RunTurn(const std::shared_ptr<Slot>& slot, size_t worker);
  void ScheduleLocked(const std::shared_ptr<Slot>& slot);
  /// "<stream>\0<key>" (stream names hold no NUL), the index of watching_.
  static void WatchId(std::string_view stream, std::string_view key, std::string* id);
  /// Removes waiter `id` and its unmet needs from every index and moves it to `out` with
  /// `status`.
  void FinishLocked(uint64_t id, Status status, std::vector<Finished>* out);
  /// The deadline of waiter `id` passed (timer thread); nothing if it finished since.
  void Expire(uint64_t id);
  /// Meets the waits on WatchId(stream, key) for each key (under wait_mu_).
  template <typename Keys>
  void AnswerLocked(std::string_view stream, const Keys& keys, std::vector<Finished>* finished);

  udf::Engine* const engine_;
  const Options options_;
  mutable std::mutex mu_;
  std::condition_variable idle_cv_;  // a slot stopped running
  std::map<std::string, std::shared_ptr<Slot>, std::less<>> slots_;
  std::vector<std::shared_ptr<Slot>> unstarted_;  // scheduled before Start made pool_
  bool stopping_ = false;
  /// Worker i's Sandbox and last error logged, used only by worker i's thread.
  std::vector<std::unique_ptr<udf::Sandbox>> sandboxes_;
  std::vector<std::string> last_errors_;
  std::unique_ptr<ThreadPool> pool_;  // set by Start under mu_

  mutable std::mutex wait_mu_;
  uint64_t next_waiter_ = 0;
  std::unordered_map<uint64_t, Waiter> waiters_;
  std::unordered_map<std::string, Partition> watching_;  // by WatchId
  bool timer_stop_ = false;  // no more waits: Stop failed the pending ones
  DeadlineTimer timer_;      // after what its callbacks use; stopped by Stop
};

}  // namespace higgins::derived
