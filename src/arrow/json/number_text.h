#pragma once

#include <cstdint>
#include <string_view>

namespace higgins::arrow::json {

/// The parts of a number written in JSON syntax: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
struct NumberParts {
  bool negative = false;
  std::string_view int_digits;
  std::string_view frac_digits;  // empty when there is no '.'
  int64_t exponent = 0;          // saturated to +-1e9
};

/// Splits `text` into parts; false when it is not exactly one JSON number.
bool SplitJsonNumber(std::string_view text, NumberParts* parts);

/// Digits after the decimal point needed to write the number exactly: 0 for integral values
/// ("3.0", "1.5e1", "100e-2"), 2 for "12.345e1".
int64_t FractionalDigits(const NumberParts& parts);

enum class IntegralResult { kOk, kNotANumber, kFraction, kOverflow };

/// Parses JSON number text whose value is an integer ("42", "-7", "3.0", "1e3") exactly, with no
/// rounding. kFraction when the value has a fractional part, kOverflow when its magnitude does
/// not fit in an int128 (values up to +-(2^127 - 1) are exact).
IntegralResult ParseIntegral(std::string_view text, __int128* value);

}  // namespace higgins::arrow::json
