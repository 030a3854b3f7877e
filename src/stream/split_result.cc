#include <string>
#include <unordered_map>

#include "stream/stream_log.h"

namespace higgins::stream {

Result<std::vector<ProduceResult>> SplitResult(const ProduceResult& result,
                                               std::span<const int64_t> request_rows) {
  size_t total = 0;
  for (const int64_t rows : request_rows) total += static_cast<size_t>(rows);
  if (total != result.offsets.size() || total != result.partition_indexes.size()) {
    return Status::InvalidArgument("SplitResult: the requests hold " + std::to_string(total) +
                                   " rows, the result " + std::to_string(result.offsets.size()));
  }
  std::vector<ProduceResult> parts(request_rows.size());
  // Local index of each result partition in the current part; reset per part.
  std::vector<uint32_t> local(result.partitions.size(), UINT32_MAX);
  size_t row = 0;
  for (size_t i = 0; i < request_rows.size(); ++i) {
    ProduceResult& part = parts[i];
    const auto n = static_cast<size_t>(request_rows[i]);
    part.timestamp_ms = result.timestamp_ms;
    part.offsets.assign(result.offsets.begin() + static_cast<ptrdiff_t>(row),
                        result.offsets.begin() + static_cast<ptrdiff_t>(row + n));
    part.partition_indexes.reserve(n);
    for (size_t r = row; r < row + n; ++r) {
      const uint32_t global = result.partition_indexes[r];
      if (local[global] == UINT32_MAX) {
        local[global] = static_cast<uint32_t>(part.partitions.size());
        part.partitions.push_back(result.partitions[global]);
      }
      part.partition_indexes.push_back(local[global]);
    }
    for (size_t r = row; r < row + n; ++r) local[result.partition_indexes[r]] = UINT32_MAX;
    row += n;
  }
  return parts;
}

}  // namespace higgins::stream
