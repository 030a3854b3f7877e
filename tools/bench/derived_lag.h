#pragma once

#include <cstdint>
#include <string>

namespace higgins::bench {

/// `higgins-bench derived-lag`: how long after a produce is acknowledged its record can be read
/// from a map stream (docs/performance.md, "UDFs (map and reduce)").
struct DerivedLagOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 4932;
  /// The map's WebAssembly module (the SDK example double.wasm), uploaded as "bench_lag_double".
  std::string module_path;
  /// "memory" or "file": where both streams live (storages "mem" and "disk", as --setup
  /// declares them).
  std::string storage = "memory";
  /// Records per second, sent in produce requests of `batch` records on a fixed schedule.
  double rate = 10'000;
  uint32_t batch = 10;
  /// Partition keys k0..k{keys-1}, round-robin.
  uint32_t keys = 10'000;
  double warmup_seconds = 1;
  double seconds = 10;
  /// Connections carrying the probe queries (each has its own reader thread).
  int query_connections = 4;
  /// Produce requests sent but not acknowledged at most; beyond it the sender waits (and the
  /// run reports the stall: the schedule is then no longer open-loop).
  int max_in_flight = 1000;
  int timeout_ms = 30'000;
  /// Which phases to run: "both" (baseline, then derived), "baseline" or "derived".
  std::string phases = "both";
  bool json = false;
};

/// Uploads the module, declares a source stream and a map stream on it (fresh names, deleted at
/// the end) and runs each phase: open-loop produce at the fixed rate and, on each
/// acknowledgement, one probe query of the request's last record on a second connection.
///   - baseline: the probe reads the *source* stream at that offset, without waiting (the
///     record is there): the probe's own round trip, under the same load (the map runs too).
///   - derived: the probe reads the *map* stream at that offset with wait_for_derived, so the
///     broker answers once the derived record is committed.
/// Prints per phase the produce latency (scheduled send to acknowledgement) and the probe time
/// (acknowledgement to probe reply) as p50/p99/p999/max, the achieved rate, and the map's
/// backlog when the last request was sent. A derived probe that the broker gives up on
/// (DeadlineExceeded after the wait's 10 s) counts in the probe times with its time, a lower
/// bound of its lag. Returns the exit code (0, or 1 on a setup error, 3 when requests failed or
/// results were wrong).
int RunDerivedLag(const DerivedLagOptions& options);

}  // namespace higgins::bench
