#include "udf/watchdog.h"

#include <v8-isolate.h>

#include <cassert>

namespace higgins::udf {

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mu_);
    assert(entries_.empty());
  }
  timer_.Stop();
}

void Watchdog::Arm(v8::Isolate* isolate, Clock::time_point deadline) {
  std::lock_guard lock(mu_);
  Entry& entry = entries_[isolate];
  if (entry.timer != DeadlineTimer::kNone) timer_.Cancel(entry.timer);  // armed twice
  entry.arming = ++armings_;
  entry.fired = false;
  entry.timer =
      timer_.Schedule(deadline, [this, isolate, arming = entry.arming] { Fire(isolate, arming); });
}

bool Watchdog::Disarm(v8::Isolate* isolate) {
  DeadlineTimer::Id timer = DeadlineTimer::kNone;
  bool fired = false;
  {
    std::lock_guard lock(mu_);
    auto it = entries_.find(isolate);
    if (it == entries_.end()) return false;
    fired = it->second.fired;
    timer = it->second.timer;
    entries_.erase(it);
  }
  // A callback already started finds no entry under mu_ and does nothing.
  if (!fired) timer_.Cancel(timer);
  return fired;
}

void Watchdog::Fire(v8::Isolate* isolate, uint64_t arming) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(isolate);
  if (it == entries_.end() || it->second.arming != arming || it->second.fired) return;
  isolate->TerminateExecution();
  it->second.fired = true;
}

}  // namespace higgins::udf
