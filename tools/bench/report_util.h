#pragma once

// Small helpers shared by the load generator's reports.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace higgins::bench {

/// The q-quantile (0 < q <= 1, nearest rank) of ascending nanosecond samples, in microseconds;
/// 0 for no samples.
double QuantileUs(const std::vector<uint64_t>& sorted_ns, double q);

/// `s` as the inside of a JSON string: quotes and backslashes escaped, control characters as
/// \u00XX.
std::string JsonEscape(std::string_view s);

}  // namespace higgins::bench
