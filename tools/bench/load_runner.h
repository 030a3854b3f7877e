#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "codec.h"

namespace higgins::bench {

/// Makes the requests of one connection. Called only by that connection's thread; sources of
/// different connections may share state through atomics.
class BatchSource {
 public:
  virtual ~BatchSource() = default;
  /// Fills `batch` with the next request; false when there is none left.
  virtual bool Next(Batch* batch) = 0;
};

/// A source for connection `connection` (0-based).
using SourceFactory = std::function<std::unique_ptr<BatchSource>(int connection)>;

struct LoadOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 4932;
  int connections = 4;
  /// Requests in flight per connection at most.
  int pipeline = 1;
  /// Seconds of load that are not measured, then seconds that are. With `until_exhausted` the
  /// run instead lasts until every source is exhausted, and is measured after the warm-up.
  double warmup_seconds = 0;
  double seconds = 10;
  bool until_exhausted = false;
  /// Outcomes list where produced rows landed (LoadStats::produced).
  bool collect_positions = false;
  int read_timeout_ms = 60'000;
};

/// What the measured window saw. Requests completing during warm-up or after the window are
/// left out of the counts and latencies; every failed request counts in `errors`, wherever it
/// completed.
struct LoadStats {
  double seconds = 0;
  uint64_t requests = 0;
  uint64_t records = 0;
  uint64_t errors = 0;
  uint64_t bytes_sent = 0;  // request bytes written in the window
  std::string first_error;
  /// Latency of every successful request of the window, ns, sorted ascending.
  std::vector<uint64_t> latencies_ns;
  /// With collect_positions: every row produced (window or not), as (key, position).
  std::vector<std::pair<uint32_t, Position>> produced;

  /// The q-quantile (0..1) of latencies_ns in µs; 0 when there are none.
  double LatencyMicros(double q) const;
};

/// Opens `options.connections` connections to the target, each on a thread of its own that
/// keeps up to `options.pipeline` requests in flight (blocking sockets: write a burst of
/// requests, read replies, refill), and measures them. A connection that fails (refused, reset,
/// unparseable reply) stops and counts its in-flight requests as errors; the run goes on with
/// the others. Latency is from the write of a request's bytes until its last reply byte.
LoadStats RunLoad(const Target& target, const LoadOptions& options, const SourceFactory& sources);

}  // namespace higgins::bench
