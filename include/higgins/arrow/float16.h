#pragma once

#include <cstdint>

namespace higgins::arrow {

/// IEEE 754 binary16 <-> binary32 conversions (round to nearest even; NaN, infinities and
/// subnormals preserved). Arrow stores float16 as these uint16 bit patterns.
float HalfToFloat(uint16_t half);
uint16_t FloatToHalf(float value);
/// Rounds a double straight to binary16 (one rounding, to nearest even), so text parsed as a
/// double is not rounded twice on its way through float. Values from 65520 up become infinity.
uint16_t DoubleToHalf(double value);

}  // namespace higgins::arrow
