// Retry delays and the classification of transient answers.
#include "s3/backoff.h"

#include <algorithm>

namespace higgins::s3 {

std::chrono::milliseconds FullJitterBackoff(std::chrono::milliseconds base,
                                            std::chrono::milliseconds max, int failed_attempt,
                                            std::mt19937_64& rng) {
  if (base.count() <= 0 || max.count() <= 0) return std::chrono::milliseconds(0);
  const int shift = std::clamp(failed_attempt - 1, 0, 62);
  const uint64_t cap = static_cast<uint64_t>(max.count());
  uint64_t ceiling = static_cast<uint64_t>(base.count());
  // Doubling stops as soon as the cap is reached, so the shift cannot overflow.
  for (int i = 0; i < shift && ceiling < cap; ++i) ceiling *= 2;
  ceiling = std::min(ceiling, cap);
  std::uniform_int_distribution<uint64_t> uniform(0, ceiling);
  return std::chrono::milliseconds(static_cast<int64_t>(uniform(rng)));
}

bool IsTransientHttpStatus(long status, std::string_view error_code) {
  // 501 Not Implemented is the server's lasting answer about the operation itself.
  if (status >= 500 && status <= 599) return status != 501;
  if (status == 429) return true;
  return status == 400 && error_code == "RequestTimeout";
}

}  // namespace higgins::s3
