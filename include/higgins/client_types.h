#pragma once

// Values returned by higgins::Client (include/higgins/client.h).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "higgins/arrow/record_batch.h"
#include "higgins/arrow/schema.h"

namespace higgins {

/// Where a produce put its rows. Rows are listed in request order.
struct ProduceResult {
  /// Distinct partition keys of the request (a string key's bytes, an integer key in decimal),
  /// in first-seen order.
  std::vector<std::string> partitions;
  /// For row i: partitions[partition_indexes[i]] is its key and offsets[i] its offset.
  std::vector<uint32_t> partition_indexes;
  std::vector<uint64_t> offsets;
  /// Commit time shared by every row, ms since the Unix epoch.
  uint64_t timestamp_ms = 0;

  size_t num_rows() const { return offsets.size(); }
  const std::string& partition_of(size_t row) const { return partitions[partition_indexes[row]]; }
};

/// What one window of a window stream covers (docs/configuration.md, "Window streams").
struct WindowBounds {
  /// No record will ever join or leave the window.
  bool closed = false;
  /// False: a count window over the base offsets [start, end) (an open window's end lies beyond
  /// the partition's end). True: a time window over the commit timestamps [start, end), ms since
  /// the Unix epoch.
  bool by_time = false;
  uint64_t start = 0;
  uint64_t end = 0;
  /// Base offset of the first member; the members are consecutive base offsets. For an empty
  /// window (a time window in a gap), the offset of the first base record after it.
  uint64_t first_offset = 0;
};

/// Consecutive records of one partition, decoded: row i is the record at offset + i. For a window
/// stream, one window: `offset` is the window's number, the rows are its members (the base
/// records at offsets window->first_offset + i, possibly none) and `window` is set.
struct Records {
  std::string stream;
  std::string partition_key;
  /// Offset of the first row; for a window stream, the window's number.
  uint64_t offset = 0;
  /// Commit time of each row, ms since the Unix epoch.
  std::vector<uint64_t> timestamps_ms;
  /// The rows, with the stream's schema.
  arrow::RecordBatch batch;
  /// Set for a window of a window stream.
  std::optional<WindowBounds> window;

  int64_t num_rows() const { return batch.num_rows(); }
};

struct PartitionInfo {
  std::string key;
  /// Records in the partition; its latest offset is count - 1.
  uint64_t count = 0;
};

struct StreamInfo {
  std::string name;
  /// "source", "map", "reduce", "join" or "window".
  std::string kind;
  std::string schema_name;
  std::string partition_key;
  std::string storage;
  uint32_t buckets = 1;
  uint64_t partition_count = 0;
  uint64_t record_count = 0;
  /// Up to the broker's listing limit, in key order; partitions_truncated when there are more.
  std::vector<PartitionInfo> partitions;
  bool partitions_truncated = false;
  /// The stream's Arrow schema (field order as declared).
  arrow::SchemaPtr schema;
};

}  // namespace higgins
