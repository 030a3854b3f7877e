#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "cpu_meter.h"
#include "higgins/status.h"
#include "latency_histogram.h"

namespace higgins::bench {

/// The fan-out phase of `higgins-bench websocket` (docs/performance.md, "WebSocket fan-out").
struct FanoutOptions {
  uint16_t http_port = 0;
  /// A stream without records, of fields id (string, the partition key), seq, sent_us (int64)
  /// and payload (string).
  std::string stream;
  uint32_t readers = 1'000;
  double rate = 1'000;  // records/s
  double seconds = 10;
  uint32_t keys = 10;           // partition keys k0..k{keys-1}, round-robin
  uint32_t record_bytes = 100;  // about this many bytes of JSON per record
  uint32_t producer_connections = 2;
  uint32_t reader_threads = 1;
  /// Readers connect with `batch=true`: each message is a JSON array of records.
  bool batch = false;
  /// After the last acknowledgement, how long to wait for deliveries still on their way.
  double drain_seconds = 5;
  double connect_timeout_seconds = 60;
};

/// What a fan-out run measured.
struct FanoutResult {
  uint32_t readers = 0;        // connected, and each received a warm-up record
  double connect_seconds = 0;  // from the first connect until every reader had a warm-up record
  uint64_t scheduled = 0;      // records the producer was to send
  uint64_t produced = 0;       // acknowledged
  uint64_t produce_errors = 0;
  uint64_t unanswered = 0;  // neither: the broker had not answered by the end
  std::string first_error;
  double produce_seconds = 0;         // from the first scheduled send to the last acknowledgement
  uint64_t max_send_lateness_us = 0;  // how far behind its schedule the producer got
  LatencyHistogram post_us;           // each POST's write to its answer
  uint64_t expected = 0;              // produced x readers
  uint64_t received = 0;              // records received, repeats included
  uint64_t messages = 0;              // WebSocket messages they came in
  uint64_t distinct = 0;              // (reader, record) pairs received at least once
  uint64_t missing = 0;               // expected - the acknowledged records received
  uint64_t unacknowledged_received = 0;  // distinct deliveries of records never acknowledged
  uint64_t duplicates = 0;               // received - distinct
  uint64_t out_of_order = 0;             // offsets not above the reader's previous of the partition
  uint64_t gaps = 0;                     // offsets more than one above it
  uint64_t malformed = 0;                // frames without the fields, or with unknown keys
  uint32_t readers_closed = 0;           // connections that ended before the bench closed them
  std::string first_close;               // why the first of those ended
  LatencyHistogram latency_us;           // each delivery: its receipt - its scheduled send time
  double drain_wait_seconds = 0;         // from the last acknowledgement to the last delivery
  double window_seconds = 0;             // of the CPU measurement: first send to end of the drain
  CpuUse cpu;                            // over that window: this process and the broker
  CpuUse runnable_wait;                  // over that window: their threads' waits for a CPU
};

/// Connects `readers` WebSocket readers to ws://127.0.0.1:<http_port>/v1/ws/<stream> (Beast
/// clients on `reader_threads` threads), makes sure each one's feed is live (warm-up records,
/// partition key "warmup", until every reader has received one), then produces rate x seconds
/// records on a fixed schedule, one per POST /v1/streams/<stream>/records, round-robin over
/// `producer_connections` pipelined keep-alive connections (a thread of their own). Each record
/// carries its scheduled send time (`sent_us`, steady clock µs); each reader checks every frame
/// (each record once, offsets rising by one per partition) and notes its latency. Waits for the
/// deliveries at most `drain_seconds` after the last acknowledgement, then closes everything.
/// `broker_pid`'s CPU time is measured with this process's. Errors: a reader that cannot
/// connect, a feed that never goes live, a producer connection that cannot connect. A broker
/// that cannot keep up is not an error: the run ends 60 s after the schedule's end at the
/// latest, and what had not been answered or delivered by then is counted.
[[nodiscard]] Status RunFanout(const FanoutOptions& options, pid_t broker_pid,
                               FanoutResult* result);

}  // namespace higgins::bench
