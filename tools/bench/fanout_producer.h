#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "beast.h"
#include "higgins/status.h"
#include "http_wire.h"
#include "latency_histogram.h"
#include "websocket_fanout.h"

namespace higgins::bench {

/// The partition key of the warm-up records, which tell a fan-out reader that its feed is live.
inline constexpr std::string_view kFanoutWarmupKey = "warmup";

/// A steady-clock time in µs since the clock's epoch: the `sent_us` of the fan-out records
/// (producer and readers are one process, so they share the clock).
inline int64_t SteadyMicros(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
}

/// The producer of the fan-out phase: record i ({"id":"k<i % keys>","seq":i,"sent_us":<its
/// scheduled send time>,"payload":"xx…"}, about record_bytes of JSON) sent at start + i / rate,
/// each in a POST of its own, round-robin over `producer_connections` keep-alive connections on
/// which requests are pipelined (the broker answers each connection's in order). Open loop: a
/// slow answer never delays a send. Runs on one io_context run by one thread: the methods marked
/// thread-safe post to it, the atomics may be read from any thread, and the rest once that
/// thread has ended.
class FanoutProducer {
 public:
  using Clock = std::chrono::steady_clock;

  /// `options` (rate, keys, record_bytes, stream, producer_connections) outlives the producer.
  FanoutProducer(asio::io_context& io, const FanoutOptions& options, uint64_t records);

  /// Connects every connection (blocking) and starts reading their answers.
  [[nodiscard]] Status Connect(const asio::ip::tcp::endpoint& broker);
  /// Sends one warm-up record (partition key kFanoutWarmupKey, seq -1). Thread-safe.
  void SendWarmup();
  /// Starts the schedule. Thread-safe.
  void Start(Clock::time_point start);
  /// Closes the connections and stops the schedule. On the producer's thread.
  void Stop();

  uint64_t acknowledged() const { return acknowledged_.load(); }
  uint64_t failed() const { return failed_.load(); }
  Clock::time_point last_acknowledgement() const {
    return Clock::time_point(Clock::duration(last_ack_.load()));
  }
  /// By seq: whether its POST was answered 200.
  const std::vector<bool>& acknowledged_seqs() const { return acknowledged_seqs_; }
  /// Each acknowledged POST's time from its write to its answer.
  const LatencyHistogram& post_us() const { return post_us_; }
  /// How far behind its schedule the producer got.
  uint64_t max_lateness_us() const { return max_lateness_us_; }
  const std::string& first_error() const { return first_error_; }

 private:
  struct Sent {
    Clock::time_point at;
    int64_t seq;  // -1: a warm-up
  };
  struct Connection {
    Connection(asio::io_context& io, HttpRequest r) : stream(io), request(std::move(r)) {}
    beast::tcp_stream stream;
    HttpRequest request;    // reused: only the body changes
    std::string pending;    // requests not yet handed to a write
    std::string writing;    // the requests of the write in progress
    bool busy = false;      // a write is in progress
    std::deque<Sent> sent;  // requests without an answer, oldest first
    beast::flat_buffer buffer;
    beast_http::response<beast_http::string_body> answer;
  };

  std::string Record(int64_t seq, int64_t sent_us, std::string_view key) const;
  Clock::time_point Scheduled(uint64_t i) const;
  void Tick();
  void Send(std::string body, Clock::time_point now, int64_t seq);
  void Write(Connection* c);
  void ReadAnswer(Connection* c);
  void OnAnswer(Connection* c);
  /// The connection is unusable: its requests without an answer failed.
  void Broken(Connection* c, const std::string& why);
  void Note(const std::string& error);

  asio::io_context& io_;
  const FanoutOptions& options_;
  const uint64_t records_;
  std::string payload_;
  std::vector<std::unique_ptr<Connection>> connections_;
  size_t next_connection_ = 0;
  asio::steady_timer timer_;
  Clock::time_point start_;
  uint64_t next_ = 0;  // the next record of the schedule
  bool stopping_ = false;
  std::atomic<uint64_t> acknowledged_{0};
  std::atomic<uint64_t> failed_{0};
  std::atomic<Clock::rep> last_ack_{0};
  std::vector<bool> acknowledged_seqs_;
  LatencyHistogram post_us_;
  uint64_t max_lateness_us_ = 0;
  std::string first_error_;
};

}  // namespace higgins::bench
