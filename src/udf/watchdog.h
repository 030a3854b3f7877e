#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

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
/// Thread-safety: Arm and Disarm may be called from any thread; each isolate is armed by the one
/// thread that uses it. TerminateExecution is only called under the watchdog's mutex, so once
/// Disarm returns the watchdog no longer touches the isolate (it may then be disposed).
class Watchdog {
 public:
  using Clock = std::chrono::steady_clock;

  Watchdog();
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
    Clock::time_point deadline;
    bool fired = false;
  };

  void Loop();

  std::mutex mu_;
  std::condition_variable wake_;
  std::map<v8::Isolate*, Entry> entries_;  // guarded by mu_
  /// When the thread will next look at entries_ without being woken; max() while it waits for
  /// an Arm. Arm only wakes it for an earlier deadline, so most calls cost no thread switch.
  Clock::time_point next_check_ = Clock::time_point::max();  // guarded by mu_
  bool stop_ = false;                                        // guarded by mu_
  std::thread thread_;
};

}  // namespace higgins::udf
