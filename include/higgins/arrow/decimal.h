#pragma once

#include <string>
#include <string_view>

#include "higgins/result.h"

namespace higgins::arrow {

/// Largest unscaled magnitude for `precision` digits: 10^precision - 1 (precision 1..38).
__int128 MaxDecimalMagnitude(int precision);

/// Parses decimal text ("-12.345", "1e3", "12") exactly into an unscaled integer at `scale`
/// (value * 10^scale). Rejects: non-numeric text, more fractional digits than `scale` that are not
/// zeros (no silent rounding), and results with more than `precision` digits.
/// Errors: InvalidArgument / OutOfRange with a message that quotes the text.
Result<__int128> ParseDecimal(std::string_view text, int precision, int scale);

/// Formats an unscaled value at `scale`: (12345, 2) -> "123.45", (-5, 3) -> "-0.005".
std::string FormatDecimal(__int128 unscaled, int scale);

/// Base-10 text of a 128-bit integer.
std::string Int128ToString(__int128 value);

}  // namespace higgins::arrow
