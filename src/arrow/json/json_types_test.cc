// Every Arrow type through ReadJson: accepted forms and the values they produce.
#include <gtest/gtest.h>

#include <cmath>

#include "higgins/arrow/float16.h"
#include "arrow/json/json_reader.h"

namespace higgins::arrow::json {
namespace {

/// Reads `{"v": <value>}` rows (NDJSON, one per entry) into a one-field schema of `type`.
Result<Array> ReadValues(const DataType& type, std::initializer_list<std::string_view> values) {
  std::string json;
  for (std::string_view v : values) json += "{\"v\":" + std::string(v) + "}\n";
  HIGGINS_ASSIGN_OR_RETURN(RecordBatch batch, ReadJson(json, MakeSchema({Field("v", type)})));
  return batch.column(0);
}

Array ReadOk(const DataType& type, std::initializer_list<std::string_view> values) {
  Result<Array> array = ReadValues(type, values);
  EXPECT_TRUE(array.ok()) << array.status().ToString();
  return array.ok() ? *array : Array();
}

std::string ErrorOf(const DataType& type, std::string_view value) {
  Result<Array> array = ReadValues(type, {value});
  return array.ok() ? "OK" : array.status().message();
}

TEST(JsonTypesTest, NullType) {
  Array array = ReadOk(DataType::Null(), {"null", "null"});
  EXPECT_EQ(array.length(), 2);
  EXPECT_EQ(ErrorOf(DataType::Null(), "0"), "row 0, field 'v': null expects null (got 0)");
  EXPECT_EQ(ErrorOf(DataType::Null(), "\"\""), "row 0, field 'v': null expects null (got \"\")");
}

TEST(JsonTypesTest, Bool) {
  Array array = ReadOk(DataType::Bool(), {"true", "false", "null"});
  EXPECT_TRUE(array.BoolValue(0));
  EXPECT_FALSE(array.BoolValue(1));
  EXPECT_TRUE(array.IsNull(2));
  EXPECT_EQ(ErrorOf(DataType::Bool(), "1"), "row 0, field 'v': bool expects true or false (got 1)");
  EXPECT_EQ(ErrorOf(DataType::Bool(), "\"true\""),
            "row 0, field 'v': bool expects true or false (got \"true\")");
}

TEST(JsonTypesTest, Integers) {
  EXPECT_EQ(ReadOk(DataType::Int8(), {"-128"}).Value<int8_t>(0), -128);
  EXPECT_EQ(ReadOk(DataType::Int16(), {"-32768"}).Value<int16_t>(0), -32768);
  EXPECT_EQ(ReadOk(DataType::Int32(), {"3.0"}).Value<int32_t>(0), 3);
  EXPECT_EQ(ReadOk(DataType::Int64(), {"9223372036854775807"}).Value<int64_t>(0), INT64_MAX);
  EXPECT_EQ(ReadOk(DataType::UInt8(), {"255"}).Value<uint8_t>(0), 255);
  EXPECT_EQ(ReadOk(DataType::UInt16(), {"65535"}).Value<uint16_t>(0), 65535);
  EXPECT_EQ(ReadOk(DataType::UInt32(), {"4294967295"}).Value<uint32_t>(0), 4294967295u);
  EXPECT_EQ(ReadOk(DataType::UInt64(), {"18446744073709551615"}).Value<uint64_t>(0), UINT64_MAX);
  EXPECT_EQ(ErrorOf(DataType::Int8(), "128"), "row 0, field 'v': out of range for int8 (got 128)");
  EXPECT_EQ(ErrorOf(DataType::UInt64(), "-1"),
            "row 0, field 'v': out of range for uint64 (got -1)");
}

TEST(JsonTypesTest, Floats) {
  Array f64 = ReadOk(DataType::Float64(), {"1.25", "-0.0", "\"NaN\"", "\"Infinity\"", "1e308"});
  EXPECT_EQ(f64.Value<double>(0), 1.25);
  EXPECT_TRUE(std::signbit(f64.Value<double>(1)));
  EXPECT_TRUE(std::isnan(f64.Value<double>(2)));
  EXPECT_TRUE(std::isinf(f64.Value<double>(3)));
  EXPECT_EQ(f64.Value<double>(4), 1e308);
  Array f32 = ReadOk(DataType::Float32(), {"0.1", "\"-Infinity\""});
  EXPECT_EQ(f32.Value<float>(0), 0.1f);
  EXPECT_EQ(f32.Value<float>(1), -INFINITY);
  Array f16 = ReadOk(DataType::Float16(), {"0.5", "-2"});
  EXPECT_EQ(HalfToFloat(f16.Value<uint16_t>(0)), 0.5f);
  EXPECT_EQ(HalfToFloat(f16.Value<uint16_t>(1)), -2.0f);
  Array f16_rounded = ReadOk(DataType::Float16(), {"1.000488281250001", "65519.99999"});
  EXPECT_EQ(HalfToFloat(f16_rounded.Value<uint16_t>(0)), 1.0009765625f);
  EXPECT_EQ(HalfToFloat(f16_rounded.Value<uint16_t>(1)), 65504.0f);
  EXPECT_EQ(ErrorOf(DataType::Float16(), "65520"),
            "row 0, field 'v': out of range for float16 (got 65520)");
  EXPECT_EQ(ErrorOf(DataType::Float32(), "1e39"),
            "row 0, field 'v': out of range for float32 (got 1e39)");
  EXPECT_EQ(ErrorOf(DataType::Float64(), "true"),
            "row 0, field 'v': float64 expects a number or \"NaN\", \"Infinity\", \"-Infinity\" "
            "(got true)");
}

TEST(JsonTypesTest, Strings) {
  EXPECT_EQ(ReadOk(DataType::Utf8(), {"\"h\\u00e9\""}).BinaryValue(0), "h\xC3\xA9");
  EXPECT_EQ(ReadOk(DataType::LargeUtf8(), {"\"\""}).BinaryValue(0), "");
  EXPECT_EQ(ErrorOf(DataType::LargeUtf8(), "1"),
            "row 0, field 'v': large_string expects a string (got 1)");
}

TEST(JsonTypesTest, Binaries) {
  EXPECT_EQ(ReadOk(DataType::Binary(), {"\"AAEC/w==\""}).BinaryValue(0),
            std::string_view("\x00\x01\x02\xFF", 4));
  EXPECT_EQ(ReadOk(DataType::LargeBinary(), {"\"\""}).BinaryValue(0), "");
  EXPECT_EQ(ReadOk(DataType::FixedSizeBinary(3), {"\"YWJj\""}).BinaryValue(0), "abc");
  EXPECT_EQ(ErrorOf(DataType::Binary(), "\"AAEC/w=\""),
            "row 0, field 'v': invalid base64 (RFC 4648 standard alphabet with padding) for "
            "bytes (got \"AAEC/w=\")");
  EXPECT_EQ(ErrorOf(DataType::FixedSizeBinary(4), "\"YWJj\""),
            "row 0, field 'v': decodes to 3 bytes, fixed_size_binary(4) needs 4 (got \"YWJj\")");
  EXPECT_EQ(ErrorOf(DataType::Binary(), "[1]"),
            "row 0, field 'v': bytes expects a base64 string (got [1])");
}

TEST(JsonTypesTest, Decimals) {
  Array array = ReadOk(DataType::Decimal128(22, 2),
                       {"\"12345678901234567890.12\"", "12345678901234567890.12", "-0.5", "7"});
  EXPECT_TRUE(array.Decimal128Value(0) == static_cast<__int128>(1234567890123456789LL) * 1000 + 12);
  EXPECT_TRUE(array.Decimal128Value(1) == array.Decimal128Value(0));
  EXPECT_TRUE(array.Decimal128Value(2) == -50);
  EXPECT_TRUE(array.Decimal128Value(3) == 700);
  Array wide = ReadOk(DataType::Decimal128(38, 0), {"99999999999999999999999999999999999999"});
  EXPECT_TRUE(wide.Decimal128Value(0) > static_cast<__int128>(INT64_MAX));
  EXPECT_EQ(ErrorOf(DataType::Decimal128(22, 2), "1.001"),
            "row 0, field 'v': more fractional digits than the scale (2) of decimal(22,2) "
            "(got 1.001)");
  EXPECT_EQ(ErrorOf(DataType::Decimal128(5, 2), "\"1000.00\""),
            "row 0, field 'v': out of range for decimal(5,2) (got \"1000.00\")");
}

TEST(JsonTypesTest, Dates) {
  Array d32 = ReadOk(DataType::Date32(), {"\"2024-01-02\"", "-3"});
  EXPECT_EQ(d32.Value<int32_t>(0), 19724);
  EXPECT_EQ(d32.Value<int32_t>(1), -3);
  Array d64 =
      ReadOk(DataType::Date64(), {"\"2024-01-02\"", "\"2024-01-02T00:00:01.5+01:00\"", "86400000"});
  EXPECT_EQ(d64.Value<int64_t>(0), 1704153600000);
  EXPECT_EQ(d64.Value<int64_t>(1), 1704153600000 - 3600000 + 1500);
  EXPECT_EQ(d64.Value<int64_t>(2), 86400000);
  EXPECT_EQ(ErrorOf(DataType::Date32(), "\"2024-01-02T00:00\""),
            "row 0, field 'v': not a date (YYYY-MM-DD) for date32 (got \"2024-01-02T00:00\")");
  EXPECT_EQ(ErrorOf(DataType::Date32(), "2147483648"),
            "row 0, field 'v': out of range for date32 (got 2147483648)");
}

TEST(JsonTypesTest, Timestamps) {
  Array ms = ReadOk(DataType::Timestamp(TimeUnit::kMilli),
                    {"\"2024-01-02T03:04:05.123Z\"", "\"2024-01-02T05:04:05.123+02:00\"",
                     "\"2024-01-02 03:04:05.123\"", "1704164645123"});
  for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(ms.Value<int64_t>(i), 1704164645123) << i;
  Array ns =
      ReadOk(DataType::Timestamp(TimeUnit::kNano, "UTC"), {"\"1970-01-01T00:00:00.000000001Z\""});
  EXPECT_EQ(ns.Value<int64_t>(0), 1);
  Array s = ReadOk(DataType::Timestamp(TimeUnit::kSecond), {"\"2024-01-02T03:04:05.000Z\""});
  EXPECT_EQ(s.Value<int64_t>(0), 1704164645);
  EXPECT_EQ(ErrorOf(DataType::Timestamp(TimeUnit::kSecond), "\"2024-01-02T03:04:05.1Z\""),
            "row 0, field 'v': more fractional digits than the unit (s) holds for timestamp(s) "
            "(got \"2024-01-02T03:04:05.1Z\")");
  EXPECT_EQ(ErrorOf(DataType::Timestamp(TimeUnit::kMilli), "\"yesterday\""),
            "row 0, field 'v': not an ISO 8601 date-time for timestamp(ms) (got \"yesterday\")");
}

TEST(JsonTypesTest, TimesAndDurations) {
  EXPECT_EQ(ReadOk(DataType::Time32(TimeUnit::kSecond), {"\"01:02:03\""}).Value<int32_t>(0), 3723);
  EXPECT_EQ(ReadOk(DataType::Time32(TimeUnit::kMilli), {"3723004"}).Value<int32_t>(0), 3723004);
  EXPECT_EQ(ReadOk(DataType::Time64(TimeUnit::kMicro), {"\"01:02:03.000004\""}).Value<int64_t>(0),
            3723000004);
  EXPECT_EQ(ReadOk(DataType::Time64(TimeUnit::kNano), {"\"23:59:59.999999999\""}).Value<int64_t>(0),
            86399999999999);
  EXPECT_EQ(ReadOk(DataType::Duration(TimeUnit::kMicro), {"-42"}).Value<int64_t>(0), -42);
  EXPECT_EQ(ErrorOf(DataType::Time64(TimeUnit::kNano), "86400000000000"),
            "row 0, field 'v': out of range for time64(ns) (got 86400000000000)");
  EXPECT_EQ(ErrorOf(DataType::Time32(TimeUnit::kSecond), "\"25:00:00\""),
            "row 0, field 'v': not a time of day (HH:MM:SS[.fraction]): hour, minute or second "
            "out of range for time32(s) (got \"25:00:00\")");
  EXPECT_EQ(ErrorOf(DataType::Duration(TimeUnit::kSecond), "\"PT1S\""),
            "row 0, field 'v': duration(s) expects an integer (got \"PT1S\")");
}

}  // namespace
}  // namespace higgins::arrow::json
