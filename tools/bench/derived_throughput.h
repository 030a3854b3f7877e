#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace higgins::bench {

/// `higgins-bench derived-throughput`: the throughput of join and window streams beside plain
/// produce throughput in the same run (docs/performance.md, "Joins and windows").
struct DerivedThroughputOptions {
  /// The broker binary to start (empty: next to this program, or in the build tree's
  /// src/server). Ignored with `external`.
  std::string broker_path;
  /// Extra flags for the started broker ("--threads=2", ...).
  std::vector<std::string> broker_args;
  /// Use the broker at host:port instead of starting one.
  bool external = false;
  std::string host = "127.0.0.1";
  uint16_t port = 4932;
  /// "file" (fsync = true, the default of file storage) or "memory": where every stream lives.
  std::string storage = "file";
  /// Records per produce request.
  uint32_t batch = 100;
  /// Requests in flight: this many connections, each sending its next request when the previous
  /// one is answered (closed loop). Also the concurrency of the query measurements.
  int concurrency = 4;
  /// Partition keys k0..k{keys-1}, round-robin.
  uint32_t keys = 10'000;
  /// Seconds of producing per phase.
  double seconds = 10;
  /// Seconds of each query measurement (window, then base) of the window phase.
  double query_seconds = 5;
  /// Longest wait for the join to catch up after producing.
  double catch_up_timeout_seconds = 600;
  /// Comma-separated subset of plain,join,window (plain covers both plain baselines).
  std::string phases = "plain,join,window";
  int timeout_ms = 60'000;
  bool json = false;
};

/// Starts a broker on a temporary --dir (unless `external`), then runs on fresh streams each:
///   - plain-pair: produce alternately into two source streams with the product README's
///     `customer` and `address` schemas, no dependents: acknowledged records/s (the baseline
///     of the join);
///   - join: the same produce while the README's `customer_address` join stream joins them:
///     acknowledged records/s, and the join's throughput, produced records over the time from
///     the first produce until the join holds one joined record per produced record, and its
///     lag (records behind) when producing ended;
///   - plain-value: produce into one source stream with the README's `value` schema (the
///     baseline of the window);
///   - window: the same with a count window stream (interval 5) over it: acknowledged
///     records/s; then QueryLatest of random keys on the window stream, then on the base
///     stream, closed loop: queries/s and records/s.
/// Prints one line (or JSON object) per measurement and a table of the ratios. Returns the exit
/// code (0; 1 on a setup error; 3 when requests failed or results were wrong).
int RunDerivedThroughput(const DerivedThroughputOptions& options);

}  // namespace higgins::bench
