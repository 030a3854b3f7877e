#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "higgins/arrow/type.h"
#include "higgins/result.h"

namespace higgins::arrow::json {

/// Text forms of dates and times (docs/json.md, "Dates and times"). Dates are proleptic Gregorian
/// with a four-digit year 0000..9999. Parse errors carry only the reason ("not a date
/// (YYYY-MM-DD)"); callers add the row, field and value. Overflow of the target integer is
/// OutOfRange, everything else InvalidArgument.

inline constexpr int64_t kSecondsPerDay = 86'400;

/// 1, 1'000, 1'000'000 or 1'000'000'000.
int64_t UnitsPerSecond(TimeUnit unit);

/// "YYYY-MM-DD" -> days since 1970-01-01.
Result<int32_t> ParseDate32(std::string_view text);

/// An ISO 8601 / RFC 3339 date-time -> `unit`s since the epoch, UTC. Accepted:
/// `YYYY-MM-DD` (midnight) or `YYYY-MM-DD` + `T`|`t`|` ` + `HH:MM[:SS[.fraction]]` + an optional
/// offset `Z`|`z`|`+HH:MM`|`-HH:MM`|`+HHMM`|`+HH`. Without an offset the value is taken as UTC.
/// Fractional digits beyond the unit's precision must be zeros (no silent truncation).
Result<int64_t> ParseTimestamp(std::string_view text, TimeUnit unit);

/// "HH:MM:SS[.fraction]" (00:00:00 .. 23:59:59.999999999) -> `unit`s since midnight.
Result<int64_t> ParseTimeOfDay(std::string_view text, TimeUnit unit);

/// Appends "YYYY-MM-DD"; returns false (appending nothing) when the year is outside 0000..9999.
bool FormatDate(int64_t days, std::string* out);

/// Appends "YYYY-MM-DDTHH:MM:SS" plus, for units finer than seconds, "." and exactly 3, 6 or 9
/// digits, plus "Z". Returns false (appending nothing) when the year is outside 0000..9999.
bool FormatTimestamp(int64_t value, TimeUnit unit, std::string* out);

/// Appends "HH:MM:SS" plus the unit's fraction digits as above. Returns false (appending nothing)
/// when `value` is not within one day.
bool FormatTimeOfDay(int64_t value, TimeUnit unit, std::string* out);

}  // namespace higgins::arrow::json
