#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace higgins::bench {

/// `higgins-bench websocket`: the broker's WebSocket channels and HTTP produce, against one
/// broker it starts (docs/performance.md, "WebSocket fan-out and HTTP produce").
struct WebSocketBenchOptions {
  std::string broker_path;               // empty: DefaultBrokerPath()
  std::vector<std::string> broker_args;  // extra flags for the broker
  std::string phases = "fanout,throughput";
  // Fan-out (websocket_fanout.h).
  uint32_t readers = 1'000;
  double rate = 1'000;  // records/s
  double seconds = 10;
  uint32_t producer_connections = 2;
  uint32_t reader_threads = 1;
  bool batch = false;  // fan-out readers take arrays of records (batch=true)
  double drain_seconds = 5;
  // Both phases.
  uint32_t keys = 10;           // partition keys k0..k{keys-1}, round-robin
  uint32_t record_bytes = 100;  // about this many bytes of JSON per record
  // Throughput: one-record produces, closed loop, over HTTP and over the native protocol.
  uint32_t connections = 4;
  double throughput_seconds = 5;
  double throughput_warmup = 1;
  bool json = false;
};

/// Starts a broker (memory storage, an HTTP listener on a free port, --max-connections raised
/// to fit the readers) after raising this process's open-file limit to its hard limit, then
/// runs on fresh streams:
///   - fan-out: `readers` WebSocket readers of one stream, all live before the first record;
///     records produced at `rate` for `seconds`, one per HTTP POST; every delivery checked
///     (missing, repeated, out of order) and timed from its scheduled send (RunFanout);
///   - throughput: `connections` connections each sending one-record produces back to back for
///     `throughput_seconds` (after `throughput_warmup`), first as HTTP POSTs on keep-alive
///     connections, then as native ProduceRequests (the load generator's RunLoad and codecs);
///     records/s of each and their ratio.
/// Prints a summary, or one JSON line with `json`. Returns 0; 3 when a delivery went missing,
/// came twice or out of order, or a request failed; 1 (the reason on stderr) when the run
/// could not be made.
int RunWebSocketBench(const WebSocketBenchOptions& options);

}  // namespace higgins::bench
