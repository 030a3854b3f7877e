#pragma once

#include <cstddef>

namespace higgins {

/// Longest partition key a stream accepts, in bytes (docs/protocol.md, "Partition keys"). The
/// broker refuses longer keys in produce and queries; clients may check before sending.
inline constexpr size_t kMaxPartitionKeyBytes = 4096;

}  // namespace higgins
