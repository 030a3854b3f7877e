#include "tests/support/js_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace higgins::testing {
namespace {

// Expected strings were printed by Node 20 with String(x) and JSON.stringify(s).

TEST(JsNumberToString, IntegersAndSimpleFractionsUseFixedNotation) {
  EXPECT_EQ(JsNumberToString(1.5), "1.5");
  EXPECT_EQ(JsNumberToString(-2.5), "-2.5");
  EXPECT_EQ(JsNumberToString(100), "100");
  EXPECT_EQ(JsNumberToString(65504), "65504");
  EXPECT_EQ(JsNumberToString(123.456), "123.456");
}

TEST(JsNumberToString, SwitchesToExponentAtTwentyOneDigits) {
  EXPECT_EQ(JsNumberToString(1e20), "100000000000000000000");
  EXPECT_EQ(JsNumberToString(123456789012345680000.0), "123456789012345680000");
  EXPECT_EQ(JsNumberToString(1e21), "1e+21");
  EXPECT_EQ(JsNumberToString(4.35e25), "4.35e+25");
  EXPECT_EQ(JsNumberToString(std::numeric_limits<double>::max()), "1.7976931348623157e+308");
}

TEST(JsNumberToString, SwitchesToExponentBelowOneMillionth) {
  EXPECT_EQ(JsNumberToString(0.000001), "0.000001");
  EXPECT_EQ(JsNumberToString(1.25e-5), "0.0000125");
  EXPECT_EQ(JsNumberToString(1e-7), "1e-7");
  EXPECT_EQ(JsNumberToString(3e-7), "3e-7");
  EXPECT_EQ(JsNumberToString(std::ldexp(1.0, -24)), "5.960464477539063e-8");
  EXPECT_EQ(JsNumberToString(std::numeric_limits<double>::denorm_min()), "5e-324");
}

TEST(JsNumberToString, WidenedFloat32KeepsAllItsDigits) {
  EXPECT_EQ(JsNumberToString(static_cast<double>(0.1f)), "0.10000000149011612");
}

TEST(JsNumberToString, SpecialValuesMatchJavaScript) {
  EXPECT_EQ(JsNumberToString(0.0), "0");
  EXPECT_EQ(JsNumberToString(-0.0), "0");
  EXPECT_EQ(JsNumberToString(std::nan("")), "NaN");
  EXPECT_EQ(JsNumberToString(-std::numeric_limits<double>::infinity()), "-Infinity");
}

TEST(JsonQuote, EscapesLikeJsonStringify) {
  EXPECT_EQ(JsonQuote("a\"b\\c\b\f\n\r\t\x01\x1f"), R"("a\"b\\c\b\f\n\r\t\u0001\u001f")");
}

TEST(JsonQuote, LeavesDeleteSlashAndNonAsciiAlone) {
  EXPECT_EQ(JsonQuote("\x7f/\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xe2\x80\xa8"),
            "\"\x7f/\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xe2\x80\xa8\"");
}

TEST(JsonQuote, EmptyStringIsTwoQuotes) {
  EXPECT_EQ(JsonQuote(""), "\"\"");
}

}  // namespace
}  // namespace higgins::testing
