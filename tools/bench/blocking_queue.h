#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace higgins::bench {

/// A FIFO between threads: any number of pushers, any number of poppers.
template <typename T>
class BlockingQueue {
 public:
  void Push(T value) {
    {
      std::lock_guard lock(mu_);
      items_.push_back(std::move(value));
    }
    cv_.notify_one();
  }
  /// No more pushes: poppers get what is left, then nothing.
  void Close() {
    {
      std::lock_guard lock(mu_);
      closed_ = true;
    }
    cv_.notify_all();
  }
  /// The next item; nullopt once closed and empty.
  std::optional<T> Pop() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return closed_ || !items_.empty(); });
    if (items_.empty()) return std::nullopt;
    T value = std::move(items_.front());
    items_.pop_front();
    return value;
  }
  /// Replaces *out with every item queued, waiting for at least one; false once closed and
  /// empty.
  bool PopAll(std::vector<T>* out) {
    out->clear();
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return closed_ || !items_.empty(); });
    if (items_.empty()) return false;
    for (T& item : items_) out->push_back(std::move(item));
    items_.clear();
    return true;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<T> items_;
  bool closed_ = false;
};

}  // namespace higgins::bench
