#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>

#include "common/deadline_timer.h"

namespace v8 {
class Isolate;
}

namespace higgins::udf {

/// One thread that stops V8 isolates whose call runs past its deadline, with
/// Isolate::TerminateExecution (the one Isolate method that is safe from another thread).
///
/// A sandbox arms the watchdog before a call and disarms it after. Disarm reports whether the
/// watchdog fired; if it did, the sandbox must call CancelTerminateExecution on its own thread,
/// even when the call had already returned by the time the watchdog fired (the termination would
/// otherwise hit the sandbox's next call).
///
/// The thread is a DeadlineTimer (common/deadline_timer.h): Arm schedules the termination at the
/// deadline, Disarm cancels it.
///
/// Thread-safety: Arm and Disarm may be called from any thread; each isolate is armed by the one
/// thread that uses it. TerminateExecution is only called under the watchdog's mutex, for the
/// arming still in entries_, so once Disarm returns the watchdog no longer touches the isolate
/// (it may then be disposed), even if the timer's callback for it had already started.
class Watchdog {
 public:
  using Clock = std::chrono::steady_clock;

  Watchdog() = default;
  /// Stops and joins the thread. No isolate may be armed.
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  /// Watches `isolate` until Disarm; at `deadline` its execution is terminated.
  void Arm(v8::Isolate* isolate, Clock::time_point deadline);
  /// Stops watching `isolate`. True if its execution was terminated since Arm.
  bool Disarm(v8::Isolate* isolate);

 private:
  struct Entry {
    uint64_t arming = 0;                             // which Arm this is
    DeadlineTimer::Id timer = DeadlineTimer::kNone;  // its callback, for Disarm to cancel
    bool fired = false;
  };

  /// The timer's callback for Arm number `arming` of `isolate`: terminates it if that arming is
  /// still in entries_ (a late callback of an arming disarmed since does nothing).
  void Fire(v8::Isolate* isolate, uint64_t arming);

  std::mutex mu_;
  std::map<v8::Isolate*, Entry> entries_;  // guarded by mu_
  uint64_t armings_ = 0;                   // guarded by mu_
  DeadlineTimer timer_;  // last: stopped (its thread joined) before the members above go
};

}  // namespace higgins::udf
