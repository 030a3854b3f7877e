#include "higgins/arrow/decimal.h"

#include <gtest/gtest.h>

namespace higgins::arrow {
namespace {

TEST(DecimalTest, ParsesExactly) {
  EXPECT_EQ(Int128ToString(*ParseDecimal("123.45", 10, 2)), "12345");
  EXPECT_EQ(Int128ToString(*ParseDecimal("-0.5", 10, 3)), "-500");
  EXPECT_EQ(Int128ToString(*ParseDecimal("7", 5, 0)), "7");
  EXPECT_EQ(Int128ToString(*ParseDecimal("1.2e3", 10, 2)), "120000");
  EXPECT_EQ(Int128ToString(*ParseDecimal("1250E-3", 10, 2)), "125");
  EXPECT_EQ(Int128ToString(*ParseDecimal("12345678901234567890.12", 22, 2)),
            "1234567890123456789012");
  EXPECT_EQ(Int128ToString(*ParseDecimal("1.500", 4, 1)), "15");
  EXPECT_EQ(Int128ToString(*ParseDecimal("0", 1, 0)), "0");
  EXPECT_EQ(Int128ToString(*ParseDecimal("+.25", 3, 2)), "25");
  EXPECT_EQ(Int128ToString(*ParseDecimal("0e999999999", 5, 2)), "0");
  EXPECT_EQ(Int128ToString(*ParseDecimal("1" + std::string(1'200'000, '0') + "e-1200000", 5, 2)),
            "100");
  EXPECT_EQ(Int128ToString(*ParseDecimal("0." + std::string(1'100'000, '0') + "1e1100002", 5, 2)),
            "1000");
  EXPECT_EQ(Int128ToString(*ParseDecimal("-0.000e99999999999999999999", 5, 2)), "0");
}

TEST(DecimalTest, LargestAndSmallestOfPrecision38) {
  const std::string max(38, '9');
  EXPECT_EQ(Int128ToString(*ParseDecimal(max, 38, 0)), max);
  EXPECT_EQ(Int128ToString(*ParseDecimal("-" + max, 38, 0)), "-" + max);
  EXPECT_EQ(ParseDecimal("1" + std::string(38, '0'), 38, 0).status().code(),
            StatusCode::kOutOfRange);
}

TEST(DecimalTest, RejectsRoundingAndOverflow) {
  Result<__int128> r = ParseDecimal("1.234", 10, 2);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "decimal '1.234' has more than 2 fractional digits");
  EXPECT_EQ(ParseDecimal("1000", 3, 0).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(ParseDecimal("10.0", 3, 2).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(ParseDecimal("1e99999999999999999999", 5, 2).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(ParseDecimal("1e-99999999999999999999", 5, 2).status().message(),
            "decimal '1e-99999999999999999999' has more than 2 fractional digits");
  for (const char* bad : {"", "-", "1.2.3", "abc", "1e", "1e+", "0x10", "1 ", "."}) {
    EXPECT_EQ(ParseDecimal(bad, 10, 2).status().code(), StatusCode::kInvalidArgument) << bad;
  }
}

TEST(DecimalTest, FormatsWithScale) {
  EXPECT_EQ(FormatDecimal(12345, 2), "123.45");
  EXPECT_EQ(FormatDecimal(-5, 3), "-0.005");
  EXPECT_EQ(FormatDecimal(0, 2), "0.00");
  EXPECT_EQ(FormatDecimal(42, 0), "42");
  __int128 min = -(static_cast<__int128>(1) << 126) * 2;  // INT128_MIN
  EXPECT_EQ(Int128ToString(min), "-170141183460469231731687303715884105728");
}

}  // namespace
}  // namespace higgins::arrow
