#pragma once

#include <atomic>
#include <chrono>
#include <memory>

#include "server/asio.h"

namespace higgins::server {

/// Gives memory that the broker has freed back to the system (glibc's malloc_trim), a delay
/// after it is asked to, once for a burst of requests. glibc keeps freed chunks in its arenas
/// (and raises its mmap threshold after a large chunk is freed), so the buffers of closed
/// connections would otherwise stay in the broker's resident size. Listeners ask for it when a
/// connection closes. Thread-safe; owned through a shared_ptr (a pending release holds it).
class MemoryRelease : public std::enable_shared_from_this<MemoryRelease> {
 public:
  /// `io` runs the release and outlives this object's pending work.
  explicit MemoryRelease(asio::io_context& io,
                         std::chrono::milliseconds delay = std::chrono::seconds(1))
      : timer_(io), delay_(delay) {}

  /// Releases after the delay, unless a release is already pending.
  void Schedule();
  /// Releases now, on the calling thread.
  static void ReleaseNow();

 private:
  asio::steady_timer timer_;
  const std::chrono::milliseconds delay_;
  std::atomic<bool> scheduled_{false};
};

}  // namespace higgins::server
