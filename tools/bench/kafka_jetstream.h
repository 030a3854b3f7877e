#pragma once

// The NATS JetStream baseline of `higgins-bench kafka` (kafka_bench.h): the same records
// produced to, and consumed from, a JetStream stream on a nats-server that the caller started
// (`--jetstream-port`). kafka_jetstream.cc on libnats; kafka_jetstream_absent.cc when
// higgins-bench is built without it.

#include "higgins/status.h"
#include "kafka_bench.h"
#include "kafka_bench_internal.h"

namespace higgins::bench {

/// Records/s of the two JetStream phases, and the CPU they took (the nats-server's when
/// o.jetstream_pid is given).
struct JetStreamRates {
  double produce = 0;
  double consume = 0;
  CpuUse produce_cpu;
  CpuUse consume_cpu;
};

/// False when higgins-bench was built without libnats.
bool KafkaJetStreamAvailable();

/// On nats-server at 127.0.0.1:o.jetstream_port (with JetStream enabled), makes the stream
/// KB_MEM (memory storage, one replica, subjects kb.>; one left by an earlier run is deleted
/// first) and measures:
///   - produce: `o.connections` connections, each on a thread of its own, publishing its share
///     of the records with js_PublishAsync to subject kb.<key> (one subject per partition key),
///     at most `o.jetstream_max_pending` unacknowledged per connection, until every publish is
///     acknowledged;
///   - consume: one connection reading them all back, with an ordered push consumer (no acks,
///     flow control) or, with o.jetstream_consumer == "pull", an ephemeral pull consumer (no
///     acks) fetching `o.jetstream_fetch` messages at a time.
/// Deletes the stream at the end.
[[nodiscard]] Status RunKafkaJetStream(const KafkaBenchOptions& o, JetStreamRates* rates);

}  // namespace higgins::bench
