#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace higgins::bench {

/// `higgins-bench subscribe`: push delivery through Higgins subscriptions beside NATS JetStream
/// push consumers, driven by the same load generator in the same run (docs/performance.md,
/// "Subscriptions against NATS JetStream").
struct SubscribeOptions {
  /// The broker binary to start (empty: next to this program, or in the build tree's
  /// src/server); extra flags for it.
  std::string broker_path;
  std::vector<std::string> broker_args;
  /// The nats-server binary (looked up in PATH); JetStream is skipped, with a message, when it
  /// cannot be started or this program was built without libnats.
  std::string nats_server = "nats-server";
  /// Comma-separated Higgins storages: file (fsync before each acknowledgement, the default of
  /// file storage), file-nosync (fsync = false) and memory.
  std::string higgins_storages = "file,file-nosync,memory";
  /// Comma-separated JetStream storages: file and memory ("" for none).
  std::string jetstream_storages = "file,memory";
  /// JetStream's `sync_interval` (e.g. "always"; nats-server >= 2.10 only: 2.9 rejects the
  /// option); empty: the server's default, an fsync of the stream's files every 2 minutes (seen
  /// with strace on Debian's 2.9.10), none before a publish is acknowledged.
  std::string jetstream_sync;
  /// Comma-separated subset of latency (open loop at each rate), concurrent (closed loop) and
  /// drain (throughput of a prefilled stream).
  std::string phases = "latency,drain,concurrent";
  /// Records per second of the latency phase, one run per rate.
  std::vector<double> rates = {1000, 5000, 20000};
  /// Measured seconds of each latency and concurrent run, after `warmup_seconds`.
  double seconds = 10;
  double warmup_seconds = 1;
  /// Partition keys (subjects) k0..k{keys-1}, round-robin.
  uint32_t keys = 1000;
  /// Bytes of each record's JSON text (a payload field pads it).
  size_t record_bytes = 100;
  /// Records pushed and not acknowledged at most (Higgins: demand, topped up after each
  /// acknowledgement; JetStream: MaxAckPending).
  uint32_t window = 1000;
  /// Records sent and not acknowledged at most, per producer (one record per request).
  uint32_t max_in_flight = 1000;
  /// Records of the drain phase's prefill.
  uint64_t drain_records = 200'000;
  /// Longest wait for the consumer to catch up after producing, without progress.
  double drain_timeout_seconds = 30;
  int timeout_ms = 30'000;
  bool json = false;
};

/// Starts a broker and a nats-server on temporary folders (both stopped at the end) and, for
/// each phase, each rate and each system in turn (each run on a fresh stream, with one producer
/// connection and one consumer connection subscribed before producing):
///   - latency: open loop, record i sent at start + i / rate whatever the replies do; the
///     latency is push arrival - scheduled send time (p50/p99/p999/max), and the achieved rate;
///   - concurrent: produce closed loop (max_in_flight records outstanding) while consuming;
///     produced and delivered records/s, and the latency from the actual send;
///   - drain: prefill drain_records, then subscribe from the beginning: delivered records/s
///     from the first push to the last, every record acknowledged as it arrives.
/// Prints one line (or JSON object) per run, then Higgins / JetStream ratios. Returns the exit
/// code (0; 1 on a setup error; 3 when records went missing or requests failed).
int RunSubscribe(const SubscribeOptions& options);

}  // namespace higgins::bench
