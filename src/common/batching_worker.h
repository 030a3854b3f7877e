#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

namespace higgins {

/// One thread that runs a handler on batches: each run gets every item posted since the last
/// run, in posting order, so a handler can share one expensive step (an fsync, a round of
/// uploads) among all of them. Besides posts, a run is caused by Wake ("something changed, look
/// again", with no item) and by the deadline the previous run returned (a visibility timeout, a
/// retry back-off, a periodic tick): the thread runs at that time or at the next post or wake,
/// whichever comes first. Runs never overlap.
///
/// A worker that only wakes (it keeps its own state under its own lock) uses the default
/// `T = std::monostate` and never posts.
///
/// Shutdown: Stop (or the destructor) lets a run in progress finish; then, while items are
/// queued, the handler runs on them (so nothing accepted is lost), and the thread ends. A
/// pending Wake or deadline alone causes no run once Stop has begun. Post after Stop has begun
/// refuses the item (returns false and leaves it with the caller); Wake after Stop does nothing.
/// No run ever happens inline on the caller's thread.
///
/// Thread-safety: Post, Wake and Stop may be called from any thread, including the handler's
/// (except Stop: it joins the thread, so it must not be called from the handler). The handler
/// must not throw: an exception escaping it ends the process (std::terminate).
template <typename T = std::monostate>
class BatchingWorker {
 public:
  using Clock = std::chrono::steady_clock;
  /// When to run again without a post or wake; nullopt: only on the next post or wake.
  using NextRun = std::optional<Clock::time_point>;
  /// Runs on the worker thread; `batch` holds the items posted since the last run (empty for a
  /// run caused by a wake or a deadline). The handler may move from them.
  using Handler = std::function<NextRun(std::vector<T>& batch)>;

  /// Starts the thread, whose first run is at the first post or wake, or at `first` when
  /// given. `handler` must stay callable until Stop returns.
  explicit BatchingWorker(Handler handler, NextRun first = std::nullopt)
      : handler_(std::move(handler)), thread_([this, first] { Run(first); }) {}
  ~BatchingWorker() { Stop(); }
  BatchingWorker(const BatchingWorker&) = delete;
  BatchingWorker& operator=(const BatchingWorker&) = delete;

  /// Queues `item` for the next run and moves from it; returns false, leaving `item` as it was,
  /// once Stop has begun.
  [[nodiscard]] bool Post(T& item) {
    {
      std::lock_guard lock(mu_);
      if (stopping_) return false;
      queue_.push_back(std::move(item));
    }
    cv_.notify_one();
    return true;
  }

  /// Asks for a run (one, however many wakes arrive before it starts). Does nothing once Stop
  /// has begun.
  void Wake() {
    {
      std::lock_guard lock(mu_);
      if (stopping_ || woken_) return;
      woken_ = true;
    }
    cv_.notify_one();
  }

  /// Runs the handler on the items still queued, then ends the thread. Idempotent; concurrent
  /// callers all return once the thread has ended.
  void Stop() {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
    }
    cv_.notify_one();
    std::lock_guard join_lock(join_mu_);
    if (thread_.joinable()) thread_.join();
  }

 private:
  void Run(NextRun next) {
    std::vector<T> batch;
    std::unique_lock lock(mu_);
    while (true) {
      auto due = [&] { return stopping_ || woken_ || !queue_.empty(); };
      // NOLINTNEXTLINE(bugprone-branch-clone): clang-tidy 14 takes the two waits for one
      if (next) {
        cv_.wait_until(lock, *next, due);
      } else {
        cv_.wait(lock, due);
      }
      if (stopping_ && queue_.empty()) return;
      woken_ = false;
      batch.swap(queue_);
      lock.unlock();
      next = handler_(batch);
      batch.clear();
      lock.lock();
    }
  }

  const Handler handler_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<T> queue_;  // guarded by mu_
  bool woken_ = false;    // guarded by mu_
  bool stopping_ = false;  // guarded by mu_
  std::mutex join_mu_;    // one joiner at a time
  std::thread thread_;    // last: started once the rest is constructed
};

}  // namespace higgins
