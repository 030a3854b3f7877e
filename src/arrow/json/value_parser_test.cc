#include "arrow/json/value_parser.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include "higgins/arrow/decimal.h"
#include "higgins/arrow/float16.h"

namespace higgins::arrow::json {
namespace {

enum class Form { kNumber, kString, kText };

Result<Array> Parse(const DataType& type, std::string_view text, Form form) {
  ArrayBuilder builder(type);
  ValueParser parser;
  Status status = form == Form::kNumber   ? parser.AppendNumber(&builder, text)
                  : form == Form::kString ? parser.AppendString(&builder, text)
                                          : parser.AppendText(&builder, text);
  if (!status.ok()) return status;
  EXPECT_EQ(builder.length(), 1);
  return builder.Finish();
}

Result<Array> Number(const DataType& type, std::string_view text) {
  return Parse(type, text, Form::kNumber);
}
Result<Array> String(const DataType& type, std::string_view text) {
  return Parse(type, text, Form::kString);
}

template <typename T>
T NumberValue(const DataType& type, std::string_view text) {
  Result<Array> array = Number(type, text);
  EXPECT_TRUE(array.ok()) << text << ": " << array.status().ToString();
  return array.ok() ? array->Value<T>(0) : T{};
}

void ExpectError(const Result<Array>& result, StatusCode code, std::string_view message) {
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), code);
  EXPECT_EQ(result.status().message(), message);
}

TEST(ValueParserTest, Int8Boundaries) {
  EXPECT_EQ(NumberValue<int8_t>(DataType::Int8(), "-128"), -128);
  EXPECT_EQ(NumberValue<int8_t>(DataType::Int8(), "127"), 127);
  ExpectError(Number(DataType::Int8(), "128"), StatusCode::kOutOfRange,
              "out of range for int8 (got 128)");
  ExpectError(Number(DataType::Int8(), "-129"), StatusCode::kOutOfRange,
              "out of range for int8 (got -129)");
}

TEST(ValueParserTest, EveryIntegerWidthIsRangeChecked) {
  EXPECT_EQ(NumberValue<int16_t>(DataType::Int16(), "-32768"), -32768);
  ExpectError(Number(DataType::Int16(), "32768"), StatusCode::kOutOfRange,
              "out of range for int16 (got 32768)");
  EXPECT_EQ(NumberValue<int32_t>(DataType::Int32(), "2147483647"), 2147483647);
  ExpectError(Number(DataType::Int32(), "2147483648"), StatusCode::kOutOfRange,
              "out of range for int32 (got 2147483648)");
  EXPECT_EQ(NumberValue<int64_t>(DataType::Int64(), "-9223372036854775808"),
            std::numeric_limits<int64_t>::min());
  ExpectError(Number(DataType::Int64(), "9223372036854775808"), StatusCode::kOutOfRange,
              "out of range for int64 (got 9223372036854775808)");
  EXPECT_EQ(NumberValue<uint8_t>(DataType::UInt8(), "255"), 255);
  ExpectError(Number(DataType::UInt8(), "256"), StatusCode::kOutOfRange,
              "out of range for uint8 (got 256)");
  EXPECT_EQ(NumberValue<uint16_t>(DataType::UInt16(), "65535"), 65535);
  EXPECT_EQ(NumberValue<uint32_t>(DataType::UInt32(), "4294967295"), 4294967295u);
  ExpectError(Number(DataType::UInt32(), "4294967296"), StatusCode::kOutOfRange,
              "out of range for uint32 (got 4294967296)");
}

TEST(ValueParserTest, UInt64MaxAndNegativeIntoUnsigned) {
  EXPECT_EQ(NumberValue<uint64_t>(DataType::UInt64(), "18446744073709551615"),
            std::numeric_limits<uint64_t>::max());
  ExpectError(Number(DataType::UInt64(), "18446744073709551616"), StatusCode::kOutOfRange,
              "out of range for uint64 (got 18446744073709551616)");
  ExpectError(Number(DataType::UInt64(), "-1"), StatusCode::kOutOfRange,
              "out of range for uint64 (got -1)");
  ExpectError(Number(DataType::UInt8(), "-1"), StatusCode::kOutOfRange,
              "out of range for uint8 (got -1)");
  EXPECT_EQ(NumberValue<uint64_t>(DataType::UInt64(), "-0"), 0u);
}

TEST(ValueParserTest, IntegralFloatsAreAcceptedFractionsRejected) {
  EXPECT_EQ(NumberValue<int32_t>(DataType::Int32(), "3.0"), 3);
  EXPECT_EQ(NumberValue<int32_t>(DataType::Int32(), "1e3"), 1000);
  EXPECT_EQ(NumberValue<int32_t>(DataType::Int32(), "1.5e1"), 15);
  EXPECT_EQ(NumberValue<int32_t>(DataType::Int32(), "-2500e-2"), -25);
  ExpectError(Number(DataType::Int32(), "3.5"), StatusCode::kInvalidArgument,
              "not an integer (fractional part) for int32 (got 3.5)");
  ExpectError(Number(DataType::Int64(), "1e-1"), StatusCode::kInvalidArgument,
              "not an integer (fractional part) for int64 (got 1e-1)");
  ExpectError(Number(DataType::Int64(), "1e40"), StatusCode::kOutOfRange,
              "out of range for int64 (got 1e40)");
  ExpectError(Number(DataType::Int64(), "123456789012345678901234567890123456789012"),
              StatusCode::kOutOfRange,
              "out of range for int64 (got 1234567890123456789012345678901234567890...)");
}

TEST(ValueParserTest, WrongKindsAreRejected) {
  ExpectError(String(DataType::Int32(), "12"), StatusCode::kInvalidArgument,
              "int32 expects an integer (got \"12\")");
  ExpectError(Number(DataType::Utf8(), "12"), StatusCode::kInvalidArgument,
              "string expects a string (got 12)");
  ExpectError(Number(DataType::Bool(), "1"), StatusCode::kInvalidArgument,
              "bool expects true or false (got 1)");
  ExpectError(Number(DataType::Null(), "0"), StatusCode::kInvalidArgument,
              "null expects null (got 0)");
  ArrayBuilder builder(DataType::Int8());
  ValueParser parser;
  EXPECT_EQ(parser.AppendBool(&builder, true).message(), "int8 expects an integer (got true)");
  EXPECT_EQ(builder.length(), 0);
}

TEST(ValueParserTest, Floats) {
  EXPECT_EQ(NumberValue<double>(DataType::Float64(), "0.1"), 0.1);
  EXPECT_EQ(NumberValue<double>(DataType::Float64(), "-1.5e300"), -1.5e300);
  EXPECT_EQ(NumberValue<double>(DataType::Float64(), "1e-400"), 0.0);
  EXPECT_EQ(NumberValue<float>(DataType::Float32(),
                               "0.00000000000000000000000000000000000000000000000001"),
            0.0f);
  EXPECT_EQ(NumberValue<float>(DataType::Float32(), "-100e-60"), 0.0f);
  EXPECT_EQ(NumberValue<float>(DataType::Float32(), "3.25"), 3.25f);
  EXPECT_EQ(HalfToFloat(NumberValue<uint16_t>(DataType::Float16(), "1.5")), 1.5f);
  EXPECT_EQ(HalfToFloat(NumberValue<uint16_t>(DataType::Float16(), "65504")), 65504.0f);
  ExpectError(Number(DataType::Float16(), "65520"), StatusCode::kOutOfRange,
              "out of range for float16 (got 65520)");
  ExpectError(Number(DataType::Float32(), "1e39"), StatusCode::kOutOfRange,
              "out of range for float32 (got 1e39)");
  ExpectError(Number(DataType::Float64(), "1e400"), StatusCode::kOutOfRange,
              "out of range for float64 (got 1e400)");
}

TEST(ValueParserTest, Float16IsRoundedOnceFromTheText) {
  const DataType half = DataType::Float16();
  // Through float first, 1.000488281250001 became 1 + 2^-11 exactly, a tie that rounds to 1.
  EXPECT_EQ(NumberValue<uint16_t>(half, "1.000488281250001"), 0x3C01);  // 1.0009765625
  EXPECT_EQ(NumberValue<uint16_t>(half, "1.00048828125"), 0x3C00);      // a true tie: to even
  EXPECT_EQ(NumberValue<uint16_t>(half, "1.0004883"), 0x3C01);
  // Through float first, 65519.99999 became 65520, which is out of range.
  EXPECT_EQ(NumberValue<uint16_t>(half, "65519.99999"), 0x7BFF);  // 65504
  EXPECT_EQ(NumberValue<uint16_t>(half, "-65519.99999"), 0xFBFF);
  EXPECT_EQ(NumberValue<uint16_t>(half, "5.9604644775390625e-8"), 0x0001);  // 2^-24
  // Text that the nearest double puts exactly halfway between two halves is rounded by the
  // side of the halfway point the text itself lies on.
  EXPECT_EQ(NumberValue<uint16_t>(half, "1.00048828125000000000001"), 0x3C01);
  EXPECT_EQ(NumberValue<uint16_t>(half, "-1.00048828125000000000001"), 0xBC01);
  EXPECT_EQ(NumberValue<uint16_t>(half, "1.00048828124999999999999"), 0x3C00);
  EXPECT_EQ(NumberValue<uint16_t>(half, "1.00146484375"), 0x3C02);  // a true tie: to even
  EXPECT_EQ(NumberValue<uint16_t>(half, "1.00146484374999999999999"), 0x3C01);
  EXPECT_EQ(NumberValue<uint16_t>(half, "2.98023223876953125e-8"), 0x0000);  // 2^-25: to even
  EXPECT_EQ(NumberValue<uint16_t>(half, "2.980232238769531250000001e-8"), 0x0001);
  EXPECT_EQ(NumberValue<uint16_t>(half, "65519.9999999999999999999"), 0x7BFF);
  ExpectError(Number(half, "65520.0000000000000000001"), StatusCode::kOutOfRange,
              "out of range for float16 (got 65520.0000000000000000001)");
  EXPECT_EQ(NumberValue<uint16_t>(half, "1e-400"), 0x0000);
  ExpectError(Number(half, "65520"), StatusCode::kOutOfRange,
              "out of range for float16 (got 65520)");
  ExpectError(Number(half, "-65520.0000001"), StatusCode::kOutOfRange,
              "out of range for float16 (got -65520.0000001)");
  ExpectError(Number(half, "1e400"), StatusCode::kOutOfRange,
              "out of range for float16 (got 1e400)");
  Result<Array> from_csv = Parse(half, "1.000488281250001", Form::kText);
  ASSERT_TRUE(from_csv.ok()) << from_csv.status().ToString();
  EXPECT_EQ(from_csv->Value<uint16_t>(0), 0x3C01);
}

TEST(ValueParserTest, EveryFloat16HalfwayPointRoundsByTheSideTheTextIsOn) {
  const DataType half = DataType::Float16();
  for (uint16_t bits = 0; bits < 0x7C00; ++bits) {
    const double low = HalfToFloat(bits);
    const double high = bits == 0x7BFF ? 65536.0 : HalfToFloat(static_cast<uint16_t>(bits + 1));
    char digits[64];
    const auto written = std::to_chars(digits, digits + sizeof(digits), (low + high) / 2,
                                       std::chars_format::scientific, 40);
    std::string halfway(digits, written.ptr);
    const size_t e = halfway.find('e');
    // "d.ddd" without trailing zeros (nor a trailing '.'): its last digit is not 0.
    std::string mantissa = halfway.substr(0, e);
    mantissa.erase(mantissa.find_last_not_of('0') + 1);
    if (mantissa.back() == '.') mantissa.pop_back();
    const std::string point = mantissa.size() == 1 ? "." : "";
    const std::string exponent = halfway.substr(e);
    const std::string above = mantissa + point + "0000000000000000000001" + exponent;
    std::string below = mantissa;
    --below.back();
    below += point + "9999999999999999999999" + exponent;
    const uint16_t even = (bits & 1) ? bits + 1 : bits;
    if (bits == 0x7BFF) {
      EXPECT_EQ(Number(half, mantissa + exponent).status().code(), StatusCode::kOutOfRange);
      EXPECT_EQ(Number(half, above).status().code(), StatusCode::kOutOfRange);
    } else {
      ASSERT_EQ(NumberValue<uint16_t>(half, mantissa + exponent), even) << halfway;
      ASSERT_EQ(NumberValue<uint16_t>(half, above), bits + 1) << above;
    }
    ASSERT_EQ(NumberValue<uint16_t>(half, below), bits) << below;
  }
}

TEST(ValueParserTest, FloatSpecialStrings) {
  Result<Array> nan = String(DataType::Float64(), "NaN");
  ASSERT_TRUE(nan.ok());
  EXPECT_TRUE(std::isnan(nan->Value<double>(0)));
  Result<Array> inf = String(DataType::Float32(), "Infinity");
  ASSERT_TRUE(inf.ok());
  EXPECT_EQ(inf->Value<float>(0), std::numeric_limits<float>::infinity());
  Result<Array> minus_inf = String(DataType::Float16(), "-Infinity");
  ASSERT_TRUE(minus_inf.ok());
  EXPECT_EQ(HalfToFloat(minus_inf->Value<uint16_t>(0)), -std::numeric_limits<float>::infinity());
  ExpectError(String(DataType::Float64(), "nan"), StatusCode::kInvalidArgument,
              "float64 expects a number or \"NaN\", \"Infinity\", \"-Infinity\" (got \"nan\")");
}

TEST(ValueParserTest, DecimalsAreExact) {
  const DataType type = DataType::Decimal128(22, 2);
  Result<Array> from_string = String(type, "12345678901234567890.12");
  ASSERT_TRUE(from_string.ok()) << from_string.status().ToString();
  EXPECT_TRUE(from_string->Decimal128Value(0) ==
              static_cast<__int128>(1234567890123456789LL) * 1000 + 12);
  Result<Array> from_number = Number(type, "12345678901234567890.12");
  ASSERT_TRUE(from_number.ok());
  EXPECT_TRUE(from_number->Decimal128Value(0) == from_string->Decimal128Value(0));
  Result<Array> padded = Number(type, "-1.5");
  ASSERT_TRUE(padded.ok());
  EXPECT_TRUE(padded->Decimal128Value(0) == -150);
  Result<Array> trailing_zeros = Number(type, "2.500");
  ASSERT_TRUE(trailing_zeros.ok());
  EXPECT_TRUE(trailing_zeros->Decimal128Value(0) == 250);
}

TEST(ValueParserTest, DecimalErrors) {
  const DataType type = DataType::Decimal128(22, 2);
  ExpectError(String(type, "1.234"), StatusCode::kInvalidArgument,
              "more fractional digits than the scale (2) of decimal(22,2) (got \"1.234\")");
  ExpectError(Number(type, "1.234"), StatusCode::kInvalidArgument,
              "more fractional digits than the scale (2) of decimal(22,2) (got 1.234)");
  ExpectError(String(type, "123456789012345678901.00"), StatusCode::kOutOfRange,
              "out of range for decimal(22,2) (got \"123456789012345678901.00\")");
  ExpectError(String(type, "12,5"), StatusCode::kInvalidArgument,
              "not a decimal number for decimal(22,2) (got \"12,5\")");
  ExpectError(String(type, ""), StatusCode::kInvalidArgument,
              "not a decimal number for decimal(22,2) (got \"\")");
}

TEST(ValueParserTest, DecimalExponentsAreTreatedLikeIntegerExponents) {
  const DataType decimal = DataType::Decimal128(5, 2);
  auto unscaled = [&decimal](std::string_view text) -> std::string {
    Result<Array> array = Number(decimal, text);
    return array.ok() ? std::to_string(static_cast<int64_t>(array->Decimal128Value(0)))
                      : array.status().ToString();
  };
  for (std::string_view zero :
       {"0e999999999", "0.000e99999999999999999999", "-0e-99999999999", "0.0E+1234567890123"}) {
    EXPECT_EQ(unscaled(zero), "0") << zero;
    EXPECT_EQ(NumberValue<int8_t>(DataType::Int8(), zero), 0) << zero;
  }
  ExpectError(Number(decimal, "1e99999999999999999999"), StatusCode::kOutOfRange,
              "out of range for decimal(5,2) (got 1e99999999999999999999)");
  ExpectError(String(decimal, "-1e99999999999999999999"), StatusCode::kOutOfRange,
              "out of range for decimal(5,2) (got \"-1e99999999999999999999\")");
  ExpectError(Number(DataType::Int8(), "1e99999999999999999999"), StatusCode::kOutOfRange,
              "out of range for int8 (got 1e99999999999999999999)");
  ExpectError(Number(decimal, "1e-99999999999999999999"), StatusCode::kInvalidArgument,
              "more fractional digits than the scale (2) of decimal(5,2) (got "
              "1e-99999999999999999999)");
  EXPECT_EQ(unscaled("12345e-2"), "12345");
  EXPECT_EQ(unscaled("-0.0123e3"), "-1230");
  ExpectError(Number(decimal, "123.45e1"), StatusCode::kOutOfRange,
              "out of range for decimal(5,2) (got 123.45e1)");
  // Many digits that cancel out against the exponent: exactly 1.
  const std::string one = "1" + std::string(1'200'000, '0') + "e-1200000";
  EXPECT_EQ(unscaled(one), "100");
  const std::string tiny = "0." + std::string(1'200'000, '0') + "1e1200001";
  EXPECT_EQ(unscaled(tiny), "100");
  Result<Array> widest = Number(DataType::Decimal128(38, 0), std::string(38, '9'));
  ASSERT_TRUE(widest.ok()) << widest.status().ToString();
  EXPECT_TRUE(widest->Decimal128Value(0) == MaxDecimalMagnitude(38));
  ExpectError(Number(DataType::Decimal128(38, 0), "1e38"), StatusCode::kOutOfRange,
              "out of range for decimal(38,0) (got 1e38)");
  Result<Array> smallest = Number(DataType::Decimal128(38, 38), "-1e-38");
  ASSERT_TRUE(smallest.ok()) << smallest.status().ToString();
  EXPECT_TRUE(smallest->Decimal128Value(0) == -1);
}

TEST(ValueParserTest, TemporalStringsAndIntegers) {
  Result<Array> date = String(DataType::Date32(), "2024-01-02");
  ASSERT_TRUE(date.ok());
  EXPECT_EQ(date->Value<int32_t>(0), 19724);
  EXPECT_EQ(NumberValue<int32_t>(DataType::Date32(), "-1"), -1);
  Result<Array> ts = String(DataType::Timestamp(TimeUnit::kMilli), "2024-01-02T03:04:05.123Z");
  ASSERT_TRUE(ts.ok());
  EXPECT_EQ(ts->Value<int64_t>(0), 1704164645123);
  Result<Array> time = String(DataType::Time32(TimeUnit::kMilli), "23:59:59.999");
  ASSERT_TRUE(time.ok());
  EXPECT_EQ(time->Value<int32_t>(0), 86399999);
  ExpectError(Number(DataType::Time32(TimeUnit::kSecond), "86400"), StatusCode::kOutOfRange,
              "out of range for time32(s) (got 86400)");
  EXPECT_EQ(NumberValue<int64_t>(DataType::Duration(TimeUnit::kNano), "-5"), -5);
  ExpectError(String(DataType::Duration(TimeUnit::kSecond), "5s"), StatusCode::kInvalidArgument,
              "duration(s) expects an integer (got \"5s\")");
  ExpectError(String(DataType::Date32(), "2024-02-30"), StatusCode::kInvalidArgument,
              "not a date (YYYY-MM-DD) for date32 (got \"2024-02-30\")");
  ExpectError(String(DataType::Timestamp(TimeUnit::kSecond), "2024-01-02T03:04:05.5Z"),
              StatusCode::kInvalidArgument,
              "more fractional digits than the unit (s) holds for timestamp(s) "
              "(got \"2024-01-02T03:04:05.5Z\")");
  ExpectError(String(DataType::Timestamp(TimeUnit::kNano), "9999-01-01"), StatusCode::kOutOfRange,
              "out of range for timestamp(ns) (got \"9999-01-01\")");
}

TEST(ValueParserTest, Base64) {
  Result<Array> bytes = String(DataType::Binary(), "aGk=");
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(bytes->BinaryValue(0), "hi");
  ExpectError(String(DataType::Binary(), "aGk"), StatusCode::kInvalidArgument,
              "invalid base64 (RFC 4648 standard alphabet with padding) for bytes (got \"aGk\")");
  ExpectError(String(DataType::LargeBinary(), "a-k="), StatusCode::kInvalidArgument,
              "invalid base64 (RFC 4648 standard alphabet with padding) for large_bytes "
              "(got \"a-k=\")");
  Result<Array> fixed = String(DataType::FixedSizeBinary(2), "aGk=");
  ASSERT_TRUE(fixed.ok());
  EXPECT_EQ(fixed->BinaryValue(0), "hi");
  ExpectError(String(DataType::FixedSizeBinary(3), "aGk="), StatusCode::kInvalidArgument,
              "decodes to 2 bytes, fixed_size_binary(3) needs 3 (got \"aGk=\")");
}

TEST(ValueParserTest, CsvTextPicksNumberOrStringForm) {
  Result<Array> number = Parse(DataType::Int16(), "-12", Form::kText);
  ASSERT_TRUE(number.ok());
  EXPECT_EQ(number->Value<int16_t>(0), -12);
  ExpectError(Parse(DataType::Int16(), "12 ", Form::kText), StatusCode::kInvalidArgument,
              "int16 expects an integer (got \"12 \")");
  Result<Array> date = Parse(DataType::Date32(), "1970-01-03", Form::kText);
  ASSERT_TRUE(date.ok());
  EXPECT_EQ(date->Value<int32_t>(0), 2);
  Result<Array> days = Parse(DataType::Date32(), "3", Form::kText);
  ASSERT_TRUE(days.ok());
  EXPECT_EQ(days->Value<int32_t>(0), 3);
  Result<Array> text = Parse(DataType::Utf8(), "42", Form::kText);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text->BinaryValue(0), "42");
  Result<Array> flag = Parse(DataType::Bool(), "false", Form::kText);
  ASSERT_TRUE(flag.ok());
  EXPECT_FALSE(flag->BoolValue(0));
  ExpectError(Parse(DataType::Bool(), "1", Form::kText), StatusCode::kInvalidArgument,
              "bool expects true or false (got \"1\")");
  ExpectError(Parse(DataType::Utf8(), "a\xff", Form::kText), StatusCode::kInvalidArgument,
              "invalid UTF-8 for string (got \"a?\")");
}

TEST(ValueParserTest, ExcerptsAreShortAndPrintable) {
  EXPECT_EQ(Excerpt("abc"), "abc");
  EXPECT_EQ(Excerpt("a\nb"), "a?b");
  EXPECT_EQ(Excerpt(std::string(50, 'x')), std::string(40, 'x') + "...");
  // A multi-byte character is never cut in half.
  EXPECT_EQ(Excerpt(std::string(39, 'x') + "\xC3\xA9" + "yyyy"), std::string(39, 'x') + "...");
}

}  // namespace
}  // namespace higgins::arrow::json
