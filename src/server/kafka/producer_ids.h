#pragma once

#include <cstdint>
#include <string>

#include "higgins/result.h"

namespace higgins::server::kafka {

/// The producer ids one broker process gives out: [first, end).
struct ProducerIdRange {
  int64_t first = 0;
  int64_t end = 0;
};

/// Producer ids per broker process: 2^32, more InitProducerId requests than a process answers.
inline constexpr int64_t kProducerIdsPerProcess = int64_t{1} << 32;

/// Claims the next `span` producer ids from the file at `path` (docs/storage-format.md, "Kafka
/// producer ids"): the file holds, in decimal, the first id no process has claimed; it is
/// replaced atomically and durably with first + `span` before the range is returned, so that
/// no id is given out twice across restarts, even after kill -9. A missing file starts at 0.
/// Errors: IOError; Corruption when the file holds anything but one non-negative number;
/// ResourceExhausted when the ids are used up.
Result<ProducerIdRange> ClaimProducerIds(const std::string& path,
                                         int64_t span = kProducerIdsPerProcess);

}  // namespace higgins::server::kafka
