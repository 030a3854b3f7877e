#pragma once

// Helpers shared by the phases of `higgins-bench kafka` (kafka_bench.cc) and its NATS JetStream
// baseline (kafka_jetstream.cc).

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "cpu_meter.h"
#include "kafka_bench.h"

namespace higgins::bench {

/// Record i of a throughput phase, the same bytes for every system: JSON of about
/// `o.record_bytes` bytes, {"id":"k<i % keys>","n":<i>,"payload":"xxx..."}; *key is its id.
std::string KafkaBenchRecord(uint64_t i, const KafkaBenchOptions& o, std::string* key);

/// Records [first, end) are the share of connection `index` of `count`: `records` split as
/// evenly as possible.
struct Share {
  uint64_t first = 0;
  uint64_t end = 0;
};
inline Share ShareOf(uint64_t records, uint32_t count, uint32_t index) {
  return {records * index / count, records * (index + 1) / count};
}

/// Runs body(i) for every i in [0, count), each on a thread of its own, and waits for them all.
template <typename Body>
void OnThreads(uint32_t count, const Body& body) {
  std::vector<std::thread> threads;
  threads.reserve(count);
  for (uint32_t i = 0; i < count; ++i) threads.emplace_back([&body, i] { body(i); });
  for (std::thread& t : threads) t.join();
}

}  // namespace higgins::bench
