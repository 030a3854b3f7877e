#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace higgins {

/// One thread running callbacks at steady_clock deadlines, earliest first (callbacks of equal
/// deadlines in scheduling order). The thread sleeps until the earliest deadline it has seen and
/// is only woken by a Schedule earlier than that, so scheduling a later deadline costs no thread
/// switch. Cancelling the earliest callback does not wake the thread either: it wakes at the
/// cancelled deadline, finds nothing due and sleeps again. A watchdog that arms and cancels
/// one deadline per call thus wakes the thread about once per timeout, not once per call.
///
/// Cancel never waits: it removes a callback that has not started and reports whether it did.
/// A callback that has started (or is about to, its deadline having passed) runs to its end, so
/// a callback that may race with a Cancel must check, under its owner's lock, that its work is
/// still wanted (see udf::Watchdog and derived::DerivedEngine).
///
/// Shutdown: Stop (or the destructor) lets a running callback finish, drops every callback not
/// yet started (they never run), and joins the thread. Schedule after Stop has begun refuses
/// the callback (returns kNone; it never runs, not even inline).
///
/// Thread-safety: every method may be called from any thread, callbacks included (except
/// Stop, which must not be called from a callback). Callbacks run on the timer's thread, one
/// at a time, without the timer's lock held; they must not throw (an exception escaping one
/// ends the process) and should not block, as later deadlines wait for them.
class DeadlineTimer {
 public:
  using Clock = std::chrono::steady_clock;
  using Id = uint64_t;
  static constexpr Id kNone = 0;

  DeadlineTimer();
  ~DeadlineTimer();  // Stop()
  DeadlineTimer(const DeadlineTimer&) = delete;
  DeadlineTimer& operator=(const DeadlineTimer&) = delete;

  /// Runs `callback` on the timer's thread once `deadline` has passed (at once when it has
  /// already). Returns its id, for Cancel; kNone once Stop has begun.
  Id Schedule(Clock::time_point deadline, std::function<void()> callback);
  /// Removes callback `id` if it has not started: true if it was removed (it will never run),
  /// false if it ran, is running, or was never scheduled.
  bool Cancel(Id id);
  /// Callbacks waiting for their deadline (for tests).
  size_t Pending() const;
  /// Times the thread has woken from a wait, for any reason (for tests of the wake-up rule).
  uint64_t Wakeups() const;

  /// Lets a running callback finish, drops the others, joins the thread. Idempotent.
  void Stop();

 private:
  using Queue = std::multimap<Clock::time_point, std::pair<Id, std::function<void()>>>;
  void Run();

  mutable std::mutex mu_;
  std::condition_variable cv_;
  Queue queue_;                                     // guarded by mu_
  std::unordered_map<Id, Queue::iterator> by_id_;   // guarded by mu_
  Id next_id_ = 1;                                  // guarded by mu_
  bool stopping_ = false;                           // guarded by mu_
  // The deadline the thread sleeps until: max() while it waits for an empty queue, min()
  // while it is awake (it looks at the queue again before sleeping). Guarded by mu_.
  Clock::time_point sleeping_until_ = Clock::time_point::min();
  uint64_t wakeups_ = 0;                            // guarded by mu_
  std::mutex join_mu_;                              // one joiner at a time
  std::thread thread_;  // last: started once the rest is constructed
};

}  // namespace higgins
