#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "codec.h"
#include "load_runner.h"

namespace higgins::bench {

/// What MakeShape builds: records of `stream` under `keys` partition keys, about
/// `record_bytes` each, sent as Arrow IPC when `arrow` (WorkloadShape::arrow).
struct ShapeOptions {
  std::string stream;
  uint32_t keys = 1;
  size_t record_bytes = 0;
  bool arrow = false;
};

/// The shape of every record: keys "k0".."k{keys-1}" and a `payload` field sized so that one
/// NDJSON row {"id":"k..","seq":N,"payload":"..."} is about `record_bytes` long (the same
/// payload is sent to every target, so all of them store the same records).
std::shared_ptr<WorkloadShape> MakeShape(const ShapeOptions& options);

enum class KeyChoice { kRoundRobin, kUniform };

/// Limits a run to a number of requests across all connections; unlimited when 0.
class RequestBudget {
 public:
  explicit RequestBudget(uint64_t limit) : limit_(limit) {}
  /// Claims one request; false when the budget is spent. Thread-safe.
  bool Take() { return limit_ == 0 || issued_.fetch_add(1, std::memory_order_relaxed) < limit_; }

 private:
  uint64_t limit_;
  std::atomic<uint64_t> issued_{0};
};

/// Produce requests of `rows_per_request` rows; `seq` is unique across connections.
SourceFactory ProduceSources(uint32_t keys, uint32_t rows_per_request, KeyChoice choice,
                             std::shared_ptr<RequestBudget> budget);

/// Exactly `total_rows` rows in requests of up to `rows_per_request`, row i with key i % keys
/// and seq i, spread over the connections (for the query workload's prefill).
SourceFactory PrefillSources(uint32_t keys, uint64_t total_rows, uint32_t rows_per_request);

/// Rows that exist, per key: built from a prefill, then read-only.
struct Catalog {
  std::vector<std::vector<Position>> positions;  // by key index
  uint64_t size = 0;

  Catalog(uint32_t keys, const std::vector<std::pair<uint32_t, Position>>& produced);
};

/// Point reads of `queries_per_request` rows, each of a key (round-robin or uniform among the
/// keys holding rows) at a uniformly random existing position.
SourceFactory QuerySources(std::shared_ptr<const Catalog> catalog, uint32_t queries_per_request,
                           KeyChoice choice, std::shared_ptr<RequestBudget> budget);

/// Empty batches: one ping per request.
SourceFactory PingSources(std::shared_ptr<RequestBudget> budget);

}  // namespace higgins::bench
