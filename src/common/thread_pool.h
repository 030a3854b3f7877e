#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "higgins/result.h"

namespace higgins {

/// `n` threads taking posted tasks in posting order, each task run by one of them. Each thread
/// has an index in [0, n), passed to its hooks and to every task it runs, so per-thread state
/// (a UDF sandbox, whose isolate must stay on one thread) lives in a vector the owner indexes:
/// `Hooks::start` creates it on the thread before its first task, `Hooks::stop` releases it
/// there after its last.
///
/// Shutdown: Stop (or the destructor) lets running tasks finish, runs every task already
/// queued (a task that should not run late checks its owner's own "stopping" flag), then each
/// thread runs its stop hook and ends. Post after Stop has begun refuses the task (returns
/// false; it never runs, not even inline).
///
/// Thread-safety: Post and Stop may be called from any thread (Stop not from a task: it joins
/// the threads). Tasks and hooks must not throw: an exception escaping one ends the process.
class ThreadPool {
 public:
  using Task = std::function<void(size_t thread)>;
  struct Hooks {
    /// Runs first on thread `i`; an error fails Start. Null: nothing to do.
    std::function<Status(size_t i)> start;
    /// Runs last on thread `i` (only on threads whose start hook succeeded). Null: nothing.
    std::function<void(size_t i)> stop;
  };

  /// Starts `threads` threads (at least 1), one after the other, each once the previous one's
  /// start hook succeeded. Errors: the first start hook's error; the threads already started
  /// are stopped (their stop hooks run) before it is returned.
  static Result<std::unique_ptr<ThreadPool>> Start(size_t threads, Hooks hooks = {});
  ~ThreadPool();  // Stop()
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Queues `task`; false (and `task` dropped) once Stop has begun.
  bool Post(Task task);
  /// Runs what is queued, then ends every thread. Idempotent.
  void Stop();
  size_t size() const { return threads_.size(); }

 private:
  explicit ThreadPool(Hooks hooks) : hooks_(std::move(hooks)) {}
  void Run(size_t index);

  const Hooks hooks_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Task> tasks_;  // guarded by mu_
  bool stopping_ = false;   // guarded by mu_
  std::mutex join_mu_;      // one joiner at a time
  std::vector<std::thread> threads_;  // written by Start only, before the pool is shared
};

}  // namespace higgins
