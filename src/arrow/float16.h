#pragma once

#include <cstdint>

namespace higgins::arrow {

/// IEEE 754 binary16 <-> binary32 conversions (round to nearest even; NaN, infinities and
/// subnormals preserved). Arrow stores float16 as these uint16 bit patterns.
float HalfToFloat(uint16_t half);
uint16_t FloatToHalf(float value);

}  // namespace higgins::arrow
