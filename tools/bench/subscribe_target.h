#pragma once

// The systems `higgins-bench subscribe` compares (subscribe_bench.h), behind one interface so
// that both are driven by the same load generator: Higgins subscriptions
// (subscribe_higgins.cc) and NATS JetStream push consumers (subscribe_jetstream.cc, built only
// when libnats is found).

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "higgins/result.h"
#include "higgins/status.h"

namespace higgins::bench {

/// Nanoseconds of std::chrono::steady_clock (the producer and the consumer share the process).
int64_t NowNs();

/// What FormatRecord writes: the record's partition key index, its scheduled send time
/// (NowNs() clock) and how many bytes of padding its payload has.
struct RecordFields {
  uint32_t key = 0;
  int64_t stamp_ns = 0;
  size_t payload_bytes = 0;
};

/// One benchmark record, the same bytes for both systems: a JSON object
/// `{"id":"k<key>","ts":<stamp_ns>,"payload":"xx..."}` (Higgins: a produce's NDJSON line with
/// the schema id: string, ts: int64, payload: string; JetStream: the message body). `ts` is the
/// record's scheduled send time, NowNs() clock; `payload_bytes` pads the payload.
void FormatRecord(const RecordFields& fields, std::string* out);
/// The `ts` of a FormatRecord text; -1 when there is none.
int64_t ParseStamp(std::string_view json);

/// Errors of one side of a phase (producer or consumer); thread-safe.
class ErrorLog {
 public:
  void Add(std::string text);
  uint64_t count() const { return count_.load(); }
  std::string first() const;

 private:
  mutable std::mutex mu_;
  std::atomic<uint64_t> count_{0};
  std::string first_;
};

/// What a consumer received. Add() runs on the target's delivery thread (one call at a time);
/// SetWindow() and received() may be called from any thread meanwhile; the rest once the
/// consumer has stopped.
class Arrivals {
 public:
  /// Records stamped in [from_ns, to_ns) are measured (the others are warm-up or drain); none
  /// until this is called.
  void SetWindow(int64_t from_ns, int64_t to_ns) {
    from_ns_.store(from_ns, std::memory_order_relaxed);
    to_ns_.store(to_ns, std::memory_order_relaxed);
  }

  /// A record stamped `stamp_ns` arrived at `now_ns`.
  void Add(int64_t stamp_ns, int64_t now_ns, bool redelivered) {
    if (first_ns_ == 0) first_ns_ = now_ns;
    last_ns_ = now_ns;
    if (redelivered) ++redelivered_;
    if (stamp_ns < 0) ++unstamped_;
    if (stamp_ns >= from_ns_.load(std::memory_order_relaxed) &&
        stamp_ns < to_ns_.load(std::memory_order_relaxed)) {
      latency_ns_.push_back(static_cast<uint64_t>(now_ns > stamp_ns ? now_ns - stamp_ns : 0));
      last_measured_ns_ = now_ns;
    }
    received_.fetch_add(1, std::memory_order_release);
  }

  uint64_t received() const { return received_.load(std::memory_order_acquire); }
  int64_t first_ns() const { return first_ns_; }
  int64_t last_ns() const { return last_ns_; }
  int64_t last_measured_ns() const { return last_measured_ns_; }
  uint64_t redelivered() const { return redelivered_; }
  uint64_t unstamped() const { return unstamped_; }
  /// Arrival - stamp of each measured record, in arrival order.
  std::vector<uint64_t>& latency_ns() { return latency_ns_; }

 private:
  std::atomic<int64_t> from_ns_{0}, to_ns_{0};
  std::atomic<uint64_t> received_{0};
  int64_t first_ns_ = 0, last_ns_ = 0, last_measured_ns_ = 0;
  uint64_t redelivered_ = 0, unstamped_ = 0;
  std::vector<uint64_t> latency_ns_;
};

/// Records sent and not acknowledged, at most `limit`; thread-safe.
class InFlightLimit {
 public:
  explicit InFlightLimit(uint32_t limit) : limit_(limit) {}
  /// Waits while `limit` are in flight, then counts one more; true if it had to wait.
  bool Acquire();
  void Release();

 private:
  const uint32_t limit_;
  std::mutex mu_;
  std::condition_variable cv_;
  uint32_t in_flight_ = 0;
};

/// One system under test: a stream, one producer and one consumer (each on its own connection).
/// The benchmark calls, from its threads: NewStream; StartConsumer and StartProducer (in either
/// order: the prefill of a throughput phase produces before the consumer starts); Send, from one
/// thread at a time; FinishProducer; StopConsumer; DropStream.
class SubscribeTarget {
 public:
  virtual ~SubscribeTarget() = default;

  /// "higgins-file", "jetstream-memory", ...
  virtual const std::string& name() const = 0;
  /// Declares a fresh, empty stream (a new name) for the next phase.
  [[nodiscard]] virtual Status NewStream() = 0;
  /// Deletes the stream (after StopConsumer). Errors are printed, not returned.
  virtual void DropStream() = 0;

  /// Connects the consumer and subscribes to the stream, from its first record or from after
  /// the records it holds now, with at most `window` records pushed and not acknowledged (the
  /// consumer acknowledges every record as it arrives). `low_latency` asks the client library
  /// to send at once rather than buffer (JetStream: SendAsap). Returns once the subscription is
  /// in place; from then on, arrivals go to `arrivals` and errors to `errors`.
  [[nodiscard]] virtual Status StartConsumer(bool from_beginning, uint32_t window, bool low_latency,
                                             Arrivals* arrivals, ErrorLog* errors) = 0;
  /// Unsubscribes (deleting the subscription or consumer) and disconnects.
  virtual void StopConsumer() = 0;

  /// Connects the producer: at most `max_in_flight` records sent and not acknowledged.
  [[nodiscard]] virtual Status StartProducer(uint32_t max_in_flight, bool low_latency,
                                             ErrorLog* errors) = 0;
  /// Waits while max_in_flight records are unacknowledged, then reserves room for one more;
  /// true if it had to wait (a stall). Each Reserve is followed by one Send.
  virtual bool Reserve() = 0;
  /// Sends one record (a FormatRecord text) to the partition (subject) of `key`, without waiting
  /// for its acknowledgement.
  virtual void Send(uint32_t key, std::string_view record) = 0;
  /// Waits until every record sent is acknowledged (or failed), then disconnects.
  virtual void FinishProducer() = 0;
};

/// Higgins on the broker at 127.0.0.1:port, streams on `storage`: "file" (fsync before each
/// acknowledgement, the default), "file-nosync" (fsync = false) or "memory".
Result<std::unique_ptr<SubscribeTarget>> MakeHigginsTarget(uint16_t port,
                                                           const std::string& storage,
                                                           int timeout_ms);

/// Whether this higgins-bench was built with libnats (MakeJetStreamTarget works).
bool JetStreamAvailable();
/// JetStream on the nats-server at 127.0.0.1:port, streams on `storage` ("file" or "memory").
Result<std::unique_ptr<SubscribeTarget>> MakeJetStreamTarget(uint16_t port,
                                                             const std::string& storage,
                                                             int timeout_ms);

}  // namespace higgins::bench
