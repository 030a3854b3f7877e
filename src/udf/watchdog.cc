#include "udf/watchdog.h"

#include <v8-isolate.h>

#include <cassert>

namespace higgins::udf {

Watchdog::Watchdog() : thread_([this] { Loop(); }) {}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mu_);
    assert(entries_.empty());
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void Watchdog::Arm(v8::Isolate* isolate, Clock::time_point deadline) {
  bool wake = false;
  {
    std::lock_guard lock(mu_);
    entries_[isolate] = Entry{deadline, false};
    wake = deadline < next_check_;
    if (wake) next_check_ = deadline;
  }
  if (wake) wake_.notify_one();
}

bool Watchdog::Disarm(v8::Isolate* isolate) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(isolate);
  if (it == entries_.end()) return false;
  const bool fired = it->second.fired;
  entries_.erase(it);
  return fired;
}

void Watchdog::Loop() {
  std::unique_lock lock(mu_);
  while (!stop_) {
    const Clock::time_point now = Clock::now();
    Clock::time_point next = Clock::time_point::max();
    for (auto& [isolate, entry] : entries_) {
      if (entry.fired) continue;
      if (entry.deadline <= now) {
        isolate->TerminateExecution();
        entry.fired = true;
      } else if (entry.deadline < next) {
        next = entry.deadline;
      }
    }
    next_check_ = next;
    if (next == Clock::time_point::max()) {
      wake_.wait(lock);
    } else {
      wake_.wait_until(lock, next);
    }
  }
}

}  // namespace higgins::udf
