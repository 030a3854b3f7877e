#pragma once

// The measurements of `higgins-bench subscribe` (subscribe_bench.h), each on one target.

#include <cstdint>
#include <string>
#include <vector>

#include "higgins/result.h"
#include "subscribe_bench.h"
#include "subscribe_target.h"

namespace higgins::bench {

/// One run of one phase on one system.
struct SubscribeRun {
  std::string phase;   // "latency", "concurrent" or "drain"
  std::string system;  // the target's name
  double rate = 0;     // latency: the target rate, records/s
  double seconds = 0;  // the measured window (latency, concurrent)

  uint64_t sent = 0;      // records acknowledged or not, warm-up included
  uint64_t received = 0;  // pushes' records, warm-up and redeliveries included
  uint64_t missing = 0;   // sent and never received
  uint64_t redelivered = 0;
  /// Push arrival - stamp, ascending, of the records stamped in the window (latency, concurrent).
  std::vector<uint64_t> latency_ns;
  /// Records stamped in the window over the time from the window's start until the last of them
  /// arrived, at least the window (latency, concurrent); drain: all records over the time from
  /// the first push to the last.
  double delivered_per_s = 0;
  /// concurrent: records sent in the window per second; drain: the prefill's records/s.
  double produced_per_s = 0;
  /// drain: from the subscribe call to the first push, and to its return (Higgins:
  /// CreateSubscription and the first Take; JetStream: js_Subscribe).
  double first_push_s = 0;
  double subscribe_s = 0;

  uint64_t stalls = 0;      // sends that waited for max_in_flight
  uint64_t late_sends = 0;  // latency: sent more than 1 ms after their time
  uint64_t max_send_delay_ns = 0;
  uint64_t errors = 0;
  std::string first_error;
};

/// latency (rate > 0: open loop at `rate`) or concurrent (rate == 0: closed loop).
Result<SubscribeRun> RunLatency(SubscribeTarget& target, const SubscribeOptions& o, double rate);
/// drain: prefill, then consume from the beginning.
Result<SubscribeRun> RunDrain(SubscribeTarget& target, const SubscribeOptions& o);

}  // namespace higgins::bench
