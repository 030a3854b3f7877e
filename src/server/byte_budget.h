#pragma once

#include <atomic>
#include <cstddef>

namespace higgins::server {

/// Limits on what connections hold in memory for their peers (docs/operations.md, "Connection
/// memory"), in bytes: requests read and not yet answered, and replies and pushes made and not
/// yet written. Each has a limit per connection and a total across every connection of every
/// listener that shares the ByteBudget.
struct ConnectionByteLimits {
  /// Requests read (frame bodies, including a partly received one) and not yet answered.
  size_t request_bytes_per_connection = size_t{64} << 20;
  /// Replies and pushes made and not yet written to the socket.
  size_t reply_bytes_per_connection = size_t{16} << 20;
  size_t request_bytes_total = size_t{1} << 30;
  size_t reply_bytes_total = size_t{1} << 30;
};

/// The byte accounts of connections (one Account each) and their totals. A listener stops
/// reading a connection while RequestsFull() or RepliesFull() says so, and lets TCP push back
/// on the peer; it stops running the connection's requests while RepliesFull(). The limits are
/// checked before a read, so a connection may pass its own by at most what one read completes
/// (one frame). Protocol-free: the native, Kafka and HTTP listeners share one. Thread-safe.
class ByteBudget {
 public:
  explicit ByteBudget(ConnectionByteLimits limits = {}) : limits_(limits) {}
  ByteBudget(const ByteBudget&) = delete;
  ByteBudget& operator=(const ByteBudget&) = delete;

  const ConnectionByteLimits& limits() const { return limits_; }
  /// Totals across every account.
  size_t request_bytes() const { return request_bytes_.load(std::memory_order_relaxed); }
  size_t reply_bytes() const { return reply_bytes_.load(std::memory_order_relaxed); }

  /// One connection's bytes. Counts may be changed from any thread (a reply is often made on a
  /// thread other than the connection's). The destructor gives back what is still counted.
  class Account {
   public:
    explicit Account(ByteBudget* budget) : budget_(budget) {}
    ~Account();
    Account(const Account&) = delete;
    Account& operator=(const Account&) = delete;

    void AddRequest(size_t bytes);
    void ReleaseRequest(size_t bytes);
    void AddReply(size_t bytes);
    void ReleaseReply(size_t bytes);

    size_t request_bytes() const { return request_bytes_.load(std::memory_order_relaxed); }
    size_t reply_bytes() const { return reply_bytes_.load(std::memory_order_relaxed); }

    /// Whether this connection's requests, plus `unframed` bytes read and not yet a whole frame
    /// (counted only when requests are waiting too), reached its limit, or all connections'
    /// requests reached the total.
    bool RequestsFull(size_t unframed = 0) const;
    /// Whether this connection's unsent replies reached its limit, or all connections' the total.
    bool RepliesFull() const;
    /// Whether a total is reached while this connection is under its own limits: the connection
    /// then waits for others to make room, which nothing on it signals (poll).
    bool OnlyTotalsFull(size_t unframed = 0) const;

   private:
    bool OwnRequestsFull(size_t unframed) const;

    ByteBudget* budget_;
    std::atomic<size_t> request_bytes_{0};
    std::atomic<size_t> reply_bytes_{0};
  };

 private:
  bool TotalsFull() const;

  const ConnectionByteLimits limits_;
  std::atomic<size_t> request_bytes_{0};
  std::atomic<size_t> reply_bytes_{0};
};

}  // namespace higgins::server
