#pragma once

#include <chrono>
#include <cstdint>
#include <random>
#include <string_view>

namespace higgins::s3 {

/// The delay before the next try after failed try number `failed_attempt` (1 for the first):
/// uniform in [0, min(max, base * 2^(failed_attempt - 1))] milliseconds ("full jitter", which
/// spreads the retries of many clients). Never overflows; a non-positive base gives 0.
std::chrono::milliseconds FullJitterBackoff(std::chrono::milliseconds base,
                                            std::chrono::milliseconds max, int failed_attempt,
                                            std::mt19937_64& rng);

/// Whether an S3 answer with this HTTP status and S3 error code is worth another try: 5xx but
/// 501 Not Implemented, 429 (throttling) and 400 RequestTimeout (S3 closed an idle upload).
bool IsTransientHttpStatus(long status, std::string_view error_code);

}  // namespace higgins::s3
