#include "common/deadline_timer.h"

#include <utility>

namespace higgins {

DeadlineTimer::DeadlineTimer() : thread_([this] { Run(); }) {}

DeadlineTimer::~DeadlineTimer() {
  Stop();
}

DeadlineTimer::Id DeadlineTimer::Schedule(Clock::time_point deadline,
                                          std::function<void()> callback) {
  bool earliest = false;
  Id id = kNone;
  {
    std::lock_guard lock(mu_);
    if (stopping_) return kNone;
    id = next_id_++;
    earliest = deadline < sleeping_until_;
    by_id_.emplace(id, queue_.emplace(deadline, std::pair{id, std::move(callback)}));
  }
  if (earliest) cv_.notify_one();
  return id;
}

bool DeadlineTimer::Cancel(Id id) {
  std::lock_guard lock(mu_);
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return false;
  queue_.erase(it->second);
  by_id_.erase(it);
  return true;
}

size_t DeadlineTimer::Pending() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

uint64_t DeadlineTimer::Wakeups() const {
  std::lock_guard lock(mu_);
  return wakeups_;
}

void DeadlineTimer::Stop() {
  Queue dropped;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    dropped.swap(queue_);
    by_id_.clear();
  }
  cv_.notify_one();
  {
    std::lock_guard join_lock(join_mu_);
    if (thread_.joinable()) thread_.join();
  }
  // `dropped` is destroyed here, outside the lock: a callback's captures may take other locks.
}

void DeadlineTimer::Run() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    if (queue_.empty()) {
      sleeping_until_ = Clock::time_point::max();
      cv_.wait(lock);
      sleeping_until_ = Clock::time_point::min();
      ++wakeups_;
      continue;
    }
    // A copy: the earliest entry may be cancelled while this waits.
    const Clock::time_point next = queue_.begin()->first;
    if (Clock::now() < next) {
      sleeping_until_ = next;
      cv_.wait_until(lock, next);
      sleeping_until_ = Clock::time_point::min();
      ++wakeups_;
      continue;
    }
    std::function<void()> callback = std::move(queue_.begin()->second.second);
    by_id_.erase(queue_.begin()->second.first);
    queue_.erase(queue_.begin());
    lock.unlock();
    callback();
    callback = nullptr;  // captures released outside the lock
    lock.lock();
  }
}

}  // namespace higgins
