#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace higgins::bench {

/// `higgins-bench kafka`: the Kafka listener measured with librdkafka beside the native protocol,
/// against one broker it starts, in the same run (docs/performance.md, "Kafka clients").
struct KafkaBenchOptions {
  std::string broker_path;               // empty: DefaultBrokerPath()
  std::vector<std::string> broker_args;  // extra flags for the broker
  std::string storage = "memory";        // "memory" or "file"
  uint64_t records = 1'000'000;          // per throughput phase, split across the connections
  uint32_t record_bytes = 100;           // about this many bytes of JSON per record
  uint32_t keys = 1'000;                 // partition keys k0..k{keys-1}, round-robin
  uint32_t batch = 1'000;                // native: records per produce request
  uint32_t in_flight = 8;                // native: requests in flight on each connection
  uint32_t connections = 1;              // native connections, and Kafka producers
  std::vector<std::string> kafka_producer_settings;  // name=value: more librdkafka settings
  double latency_rate = 10'000;                      // records/s of the latency phase
  double latency_seconds = 3;
  uint16_t jetstream_port = 0;  // nats-server with JetStream; 0: no JetStream phases
  int jetstream_pid = 0;        // that nats-server's pid, for its CPU time; 0: not measured
  uint32_t jetstream_max_pending = 8'000;      // JetStream: unacknowledged publishes per connection
  std::string jetstream_consumer = "ordered";  // JetStream consume: "ordered" or "pull"
  uint32_t jetstream_fetch = 1'000;            // JetStream pull consumer: messages per fetch
  bool json = false;
};

/// Runs, on fresh streams of one broker:
///   - native produce: `connections` client connections, each on a thread of its own sending its
///     share of the records as NDJSON requests of `batch` records, `in_flight` pipelined (the
///     baseline);
///   - Kafka produce: `connections` librdkafka producers (each its own connection and thread;
///     linger 5 ms, batches up to 10,000 records, acks all, no compression), until every record
///     is acknowledged;
///   - Kafka consume: a librdkafka consumer reading those records from offset 0;
///   - produce→consume latency: records sent one by one at `latency_rate`, with linger 0, while a
///     consumer polls; each value carries its send time;
///   - with `jetstream_port`, the same records produced to and consumed from NATS JetStream
///     (kafka_jetstream.h), with `connections` publishing connections.
/// Prints records/s per phase, the Kafka/native and Kafka/JetStream ratios, the CPU time per
/// record of each throughput phase (this process's: the clients; and the server's), and latency
/// percentiles. Returns the exit status (0, or 1 with the reason on stderr).
int RunKafkaBench(const KafkaBenchOptions& options);

}  // namespace higgins::bench
