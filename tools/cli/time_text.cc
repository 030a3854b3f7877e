#include "time_text.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include "arrow/json/temporal.h"

namespace higgins::cli {

Result<uint64_t> ParseTimeArgument(std::string_view text) {
  const bool digits_only = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return c >= '0' && c <= '9';
  });
  if (digits_only) {
    uint64_t ms = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ms);
    if (ec != std::errc() || end != text.data() + text.size() ||
        ms > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Status::OutOfRange("time '" + std::string(text) +
                                "' is beyond the largest timestamp (9223372036854775807 ms)");
    }
    return ms;
  }
  if (text.size() > 1 && text[0] == '-' &&
      std::all_of(text.begin() + 1, text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return Status::OutOfRange("time '" + std::string(text) +
                              "' is before the Unix epoch (1970-01-01T00:00:00Z)");
  }
  auto parsed = arrow::json::ParseTimestamp(text, arrow::TimeUnit::kMilli);
  if (!parsed.ok()) {
    return Status(parsed.status().code(),
                  "time '" + std::string(text) + "': " + parsed.status().message() +
                      " (expected milliseconds since the Unix epoch or an ISO 8601 time such as "
                      "2026-11-29T12:00:00Z)");
  }
  if (*parsed < 0) {
    return Status::OutOfRange("time '" + std::string(text) +
                              "' is before the Unix epoch (1970-01-01T00:00:00Z)");
  }
  return static_cast<uint64_t>(*parsed);
}

std::string FormatTimestampMs(uint64_t ms) {
  std::string out;
  if (ms > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ||
      !arrow::json::FormatTimestamp(static_cast<int64_t>(ms), arrow::TimeUnit::kMilli, &out)) {
    return std::to_string(ms);
  }
  return out;
}

}  // namespace higgins::cli
