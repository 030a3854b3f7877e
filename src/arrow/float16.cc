#include "higgins/arrow/float16.h"

#include <bit>

namespace higgins::arrow {

float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  const uint32_t exp = (h >> 10) & 0x1F;
  uint32_t mant = h & 0x3FF;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400) == 0);
      bits = sign | static_cast<uint32_t>(127 - 15 - e) << 23 | (mant & 0x3FF) << 13;
    }
  } else if (exp == 0x1F) {
    bits = sign | 0x7F800000u | mant << 13;
  } else {
    bits = sign | (exp + 127 - 15) << 23 | mant << 13;
  }
  return std::bit_cast<float>(bits);
}

uint16_t FloatToHalf(float value) {
  const uint32_t f = std::bit_cast<uint32_t>(value);
  const uint16_t sign = static_cast<uint16_t>((f >> 16) & 0x8000);
  const uint32_t abs = f & 0x7FFFFFFF;
  if (abs >= 0x7F800000) {  // inf or NaN
    const bool nan = abs > 0x7F800000;
    return static_cast<uint16_t>(sign | 0x7C00 | (nan ? (0x200 | ((abs >> 13) & 0x3FF)) : 0));
  }
  if (abs >= 0x477FF000) return static_cast<uint16_t>(sign | 0x7C00);  // rounds to inf
  if (abs < 0x38800000) {  // result is subnormal or zero
    if (abs < 0x33000000) return sign;  // below half of the smallest subnormal
    const uint32_t e = abs >> 23;
    const uint32_t mant = (abs & 0x7FFFFF) | 0x800000;
    const uint32_t shift = 126 - e;  // 14 + (112 - e) ... places value at 2^-24 units
    uint32_t half_mant = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (half_mant & 1))) ++half_mant;
    return static_cast<uint16_t>(sign | half_mant);
  }
  uint32_t h = ((abs >> 13) - ((127 - 15) << 10));
  const uint32_t rem = abs & 0x1FFF;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) ++h;
  return static_cast<uint16_t>(sign | h);
}

uint16_t DoubleToHalf(double value) {
  const uint64_t d = std::bit_cast<uint64_t>(value);
  const auto sign = static_cast<uint16_t>((d >> 48) & 0x8000);
  const uint64_t abs = d & 0x7FFFFFFFFFFFFFFFull;
  const int64_t biased = static_cast<int64_t>(abs >> 52);
  if (biased == 0x7FF) {  // inf or NaN (keep the top mantissa bits, force quiet NaN)
    const bool nan = (abs & 0xFFFFFFFFFFFFFull) != 0;
    return static_cast<uint16_t>(sign | 0x7C00 | (nan ? (0x200 | ((abs >> 42) & 0x3FF)) : 0));
  }
  if (biased == 0) return sign;  // zero or a double subnormal: far below half's range
  const int64_t e = biased - 1023;
  if (e > 15) return static_cast<uint16_t>(sign | 0x7C00);
  const uint64_t m = (abs & 0xFFFFFFFFFFFFFull) | (uint64_t{1} << 52);
  // Number of mantissa bits dropped: 42 for normal halves, more for subnormal ones (unit 2^-24).
  const int64_t shift = e >= -14 ? 42 : 28 - e;
  if (shift > 63) return sign;
  uint64_t h = m >> shift;
  if (e >= -14) h = (static_cast<uint64_t>(e + 15) << 10) | (h & 0x3FF);
  const uint64_t rem = m & ((uint64_t{1} << shift) - 1);
  const uint64_t halfway = uint64_t{1} << (shift - 1);
  if (rem > halfway || (rem == halfway && (h & 1))) ++h;  // a carry may reach the exponent/inf
  return static_cast<uint16_t>(sign | h);
}

}  // namespace higgins::arrow
