#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace higgins::broker {

/// One-shot waits for the next commit to a stream: what a long-polling Kafka fetch waits on
/// instead of looking again every few milliseconds (docs/kafka.md, "Fetch").
///
/// Thread-safe. Notify runs on the thread that publishes a commit, for every commit, so when
/// nobody waits it costs one atomic load.
class CommitWaiters {
 public:
  using Wake = std::function<void()>;

  /// Registers `wake`, to be called once, by the Notify of the next commit to `stream`. Returns
  /// the id that Cancel takes (never 0).
  uint64_t Add(std::string_view stream, Wake wake);
  /// Forgets wait `id` of `stream` if it has not been woken yet; after Cancel returns, its
  /// `wake` is not called (unless it is running on another thread right now).
  void Cancel(std::string_view stream, uint64_t id);
  /// A commit to `stream` became visible: wakes (and forgets) every wait of `stream`, on this
  /// thread, outside the lock. `wake` must be quick and must not block (it posts work).
  void Notify(std::string_view stream);
  /// Waits registered now, over all streams.
  size_t size() const { return count_.load(std::memory_order_relaxed); }

 private:
  mutable std::mutex mu_;
  std::atomic<size_t> count_{0};
  uint64_t next_id_ = 1;
  std::map<std::string, std::vector<std::pair<uint64_t, Wake>>, std::less<>> waits_;
};

}  // namespace higgins::broker
