#include "client/delivery_queue.h"

#include <utility>

namespace higgins::client_internal {

void DeliveryQueue::Push(PushedRecord record) {
  {
    std::lock_guard lock(mu_);
    if (closed_) return;
    records_.push_back(std::move(record));
  }
  ready_.notify_one();
}

void DeliveryQueue::Close(Status reason) {
  {
    std::lock_guard lock(mu_);
    if (closed_) return;
    closed_ = std::move(reason);
  }
  ready_.notify_all();
}

Result<std::optional<PushedRecord>> DeliveryQueue::Pop(std::chrono::milliseconds timeout) {
  // Past a year is forever (and keeps the clock arithmetic of wait_for from overflowing).
  constexpr std::chrono::milliseconds kForever = std::chrono::hours(24 * 366);
  std::unique_lock lock(mu_);
  auto ready = [&] { return !records_.empty() || closed_.has_value(); };
  if (timeout >= kForever) {
    ready_.wait(lock, ready);
  } else if (timeout.count() > 0) {
    ready_.wait_for(lock, timeout, ready);
  }
  if (!records_.empty()) {
    std::optional<PushedRecord> out(std::move(records_.front()));
    records_.pop_front();
    return out;
  }
  if (closed_) return *closed_;
  return std::optional<PushedRecord>();
}

size_t DeliveryQueue::size() const {
  std::lock_guard lock(mu_);
  return records_.size();
}

}  // namespace higgins::client_internal
