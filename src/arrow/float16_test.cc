#include "higgins/arrow/float16.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace higgins::arrow {
namespace {

TEST(Float16Test, KnownBitPatterns) {
  EXPECT_EQ(FloatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(FloatToHalf(0.0f), 0x0000);
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(FloatToHalf(std::numeric_limits<float>::infinity()), 0x7C00);
  EXPECT_EQ(FloatToHalf(1e6f), 0x7C00);
  EXPECT_EQ(FloatToHalf(5.960464477539063e-8f), 0x0001);  // smallest subnormal
  EXPECT_EQ(FloatToHalf(0.333333343f), 0x3555);
}

TEST(Float16Test, EveryHalfRoundTrips) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const float f = HalfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(HalfToFloat(FloatToHalf(f))));
      continue;
    }
    EXPECT_EQ(FloatToHalf(f), h) << std::hex << h;
  }
}

TEST(Float16Test, DoubleToHalfMatchesFloatPathWhereFloatIsExact) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const float f = HalfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f)) continue;
    EXPECT_EQ(DoubleToHalf(static_cast<double>(f)), h) << std::hex << h;
  }
}

TEST(Float16Test, DoubleToHalfRoundsOnce) {
  // Just above the 1.0 / 1.0009765625 midpoint: a detour through float would round it down.
  EXPECT_EQ(DoubleToHalf(1.000488281250001), 0x3C01);
  EXPECT_EQ(DoubleToHalf(1.00048828125), 0x3C00);       // exact midpoint: ties to even
  EXPECT_EQ(DoubleToHalf(65519.99999), 0x7BFF);         // below the overflow midpoint: 65504
  EXPECT_EQ(DoubleToHalf(65520.0), 0x7C00);             // the midpoint rounds to infinity
  EXPECT_EQ(DoubleToHalf(-1e300), 0xFC00);
  EXPECT_EQ(DoubleToHalf(5.960464477539063e-8), 0x0001);  // smallest subnormal
  EXPECT_EQ(DoubleToHalf(2.98023223876953125e-8), 0x0000);  // half of it: ties to even (0)
  EXPECT_EQ(DoubleToHalf(std::nextafter(std::ldexp(1.0, -25), 1.0)), 0x0001);  // just above
  EXPECT_EQ(DoubleToHalf(6.097555160522461e-5), 0x03FF);    // largest subnormal
  EXPECT_EQ(DoubleToHalf(1e-300), 0x0000);
  EXPECT_EQ(DoubleToHalf(-0.0), 0x8000);
  EXPECT_TRUE(std::isnan(HalfToFloat(DoubleToHalf(std::nan("")))));
}

TEST(Float16Test, RoundsToNearestEven) {
  // 1 + 2^-11 is exactly between 1.0 (0x3C00) and the next half (0x3C01): ties to even.
  EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  EXPECT_EQ(FloatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
}

}  // namespace
}  // namespace higgins::arrow
