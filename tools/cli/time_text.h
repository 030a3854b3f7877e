#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "higgins/result.h"

namespace higgins::cli {

/// Parses the time of `query --at-time`: either digits only, milliseconds since the Unix epoch
/// (`1795953600000`), or an ISO 8601 date-time as docs/json.md reads them
/// (`2026-11-29T12:00:00Z`, `2026-11-29T12:00:00.250Z`, `2026-11-29T13:00:00+01:00`; without an
/// offset the time is UTC; a date alone is midnight). Fractional digits beyond milliseconds must
/// be zeros. Errors: InvalidArgument naming the text and the accepted forms; OutOfRange for a
/// time before 1970 or past the largest timestamp (INT64_MAX ms).
Result<uint64_t> ParseTimeArgument(std::string_view text);

/// "YYYY-MM-DDTHH:MM:SS.mmmZ" (UTC), or the decimal number when the year is past 9999.
std::string FormatTimestampMs(uint64_t ms);

}  // namespace higgins::cli
