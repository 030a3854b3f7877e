#include "tests/support/int128_text.h"

#include <gtest/gtest.h>

namespace higgins::testing {
namespace {

constexpr __int128 kMax = static_cast<__int128>((static_cast<unsigned __int128>(1) << 127) - 1);

TEST(ParseInt128, ReachesBothEndsOfTheRange) {
  EXPECT_EQ(ParseInt128("170141183460469231731687303715884105727"), kMax);
  EXPECT_EQ(ParseInt128("-170141183460469231731687303715884105728"), -kMax - 1);
  EXPECT_EQ(ParseInt128("-0"), 0);
  EXPECT_EQ(ParseInt128("42"), 42);
}

TEST(ParseInt128, RejectsOverflowAndNonDigits) {
  EXPECT_FALSE(ParseInt128("170141183460469231731687303715884105728"));
  EXPECT_FALSE(ParseInt128("-170141183460469231731687303715884105729"));
  EXPECT_FALSE(ParseInt128("999999999999999999999999999999999999999999"));
  EXPECT_FALSE(ParseInt128(""));
  EXPECT_FALSE(ParseInt128("-"));
  EXPECT_FALSE(ParseInt128("+1"));
  EXPECT_FALSE(ParseInt128("1.5"));
  EXPECT_FALSE(ParseInt128(" 1"));
}

}  // namespace
}  // namespace higgins::testing
