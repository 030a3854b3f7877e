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

/// The sign (-1, 0, 1) of |a| - |b|, exact whatever the number of digits.
int CompareMagnitudes(const NumberParts& a, const NumberParts& b);

enum class IntegralResult { kOk, kNotANumber, kFraction, kOverflow };

/// Parses JSON number text whose value is an integer ("42", "-7", "3.0", "1e3") exactly, with no
/// rounding. kFraction when the value has a fractional part, kOverflow when its magnitude does
/// not fit in an int128 (values up to +-(2^127 - 1) are exact).
IntegralResult ParseIntegral(std::string_view text, __int128* value);

enum class DecimalResult { kOk, kTooManyFractionalDigits, kOverflow };

/// A decimal128 type's parameters: `precision` significant digits [1, 38], of which `scale`
/// [0, precision] are fractional.
struct DecimalDigits {
  int precision = 0;
  int scale = 0;
};

/// The exact value of a JSON number as a decimal128(precision, scale) unscaled integer
/// (value * 10^scale), analysed like ParseIntegral so that integers and decimals treat exponents
/// alike: zero with any exponent is 0; kTooManyFractionalDigits when the value needs more than
/// `scale` fractional digits (no rounding); kOverflow when it needs more than `precision` digits,
/// however large the exponent. Requires 1 <= precision <= 38 and 0 <= scale <= precision.
DecimalResult ScaleDecimal(const NumberParts& parts, DecimalDigits decimal, __int128* unscaled);

}  // namespace higgins::arrow::json
