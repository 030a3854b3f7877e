#include "arrow/json/json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "higgins/arrow/float16.h"
#include "arrow/json/json_reader.h"

namespace higgins::arrow::json {
namespace {

/// One field per supported type, each with a value of row 0, row 1 (extremes) and null in row 2.
struct Column {
  Field field;
  std::function<void(ArrayBuilder&, int row)> append;
};

template <typename T>
Column Primitive(std::string name, DataType type, T a, T b) {
  return Column{Field(std::move(name), std::move(type)), [a, b](ArrayBuilder& builder, int row) {
                  builder.AppendPrimitive<T>(row == 0 ? a : b);
                }};
}

Column BinaryColumn(std::string name, DataType type, std::string a, std::string b) {
  return Column{Field(std::move(name), std::move(type)), [a, b](ArrayBuilder& builder, int row) {
                  ASSERT_TRUE(builder.AppendBinary(row == 0 ? a : b).ok());
                }};
}

std::vector<Column> AllTypes() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<Column> columns = {
      Column{Field("null", DataType::Null()), nullptr},
      Column{Field("bool", DataType::Bool()),
             [](ArrayBuilder& b, int row) { b.AppendBool(row == 0); }},
      Primitive<int8_t>("i8", DataType::Int8(), -128, 127),
      Primitive<int16_t>("i16", DataType::Int16(), -32768, 32767),
      Primitive<int32_t>("i32", DataType::Int32(), INT32_MIN, INT32_MAX),
      Primitive<int64_t>("i64", DataType::Int64(), INT64_MIN, INT64_MAX),
      Primitive<uint8_t>("u8", DataType::UInt8(), 0, 255),
      Primitive<uint16_t>("u16", DataType::UInt16(), 0, 65535),
      Primitive<uint32_t>("u32", DataType::UInt32(), 0, UINT32_MAX),
      Primitive<uint64_t>("u64", DataType::UInt64(), 0, UINT64_MAX),
      Primitive<uint16_t>("f16", DataType::Float16(), FloatToHalf(0.1f), FloatToHalf(-INFINITY)),
      Primitive<float>("f32", DataType::Float32(), 0.1f, std::numeric_limits<float>::denorm_min()),
      Primitive<double>("f64", DataType::Float64(), 1e300, nan),
      Primitive<double>("f64b", DataType::Float64(), -0.0, inf),
      BinaryColumn("s", DataType::Utf8(), "q\"b\\s/\n\t\x01\x7f \xC3\xA9\xF0\x9F\x98\x80", ""),
      BinaryColumn("ls", DataType::LargeUtf8(), "large", std::string("nul\0x", 5)),
      BinaryColumn("bin", DataType::Binary(), std::string("\x00\xFF", 2), ""),
      BinaryColumn("lbin", DataType::LargeBinary(), "abcd", "a"),
      BinaryColumn("fsb", DataType::FixedSizeBinary(3), "abc", std::string("\0\0\0", 3)),
      Primitive<int32_t>("d32", DataType::Date32(), 19724, INT32_MIN),
      Primitive<int64_t>("d64", DataType::Date64(), 1704153600000, 1704164645123),
      Primitive<int64_t>("ts_s", DataType::Timestamp(TimeUnit::kSecond), 1704164645, INT64_MAX),
      Primitive<int64_t>("ts_ms", DataType::Timestamp(TimeUnit::kMilli, "UTC"), 1704164645123, -1),
      Primitive<int64_t>("ts_us", DataType::Timestamp(TimeUnit::kMicro), 1, -1),
      Primitive<int64_t>("ts_ns", DataType::Timestamp(TimeUnit::kNano, "+02:00"), INT64_MIN,
                         INT64_MAX),
      Primitive<int32_t>("t32_s", DataType::Time32(TimeUnit::kSecond), 3723, 86399),
      Primitive<int32_t>("t32_ms", DataType::Time32(TimeUnit::kMilli), 3723004, 0),
      Primitive<int64_t>("t64_us", DataType::Time64(TimeUnit::kMicro), 3723000004, 86399999999),
      Primitive<int64_t>("t64_ns", DataType::Time64(TimeUnit::kNano), 1, 86399999999999),
      Primitive<int64_t>("dur", DataType::Duration(TimeUnit::kMilli), -5, INT64_MAX),
      Column{Field("dec", DataType::Decimal128(22, 2)),
             [](ArrayBuilder& b, int row) {
               b.AppendDecimal128(row == 0
                                      ? static_cast<__int128>(1234567890123456789LL) * 1000 + 12
                                      : -static_cast<__int128>(5));
             }},
  };
  return columns;
}

RecordBatch AllTypesBatch() {
  std::vector<Column> columns = AllTypes();
  std::vector<Field> fields;
  std::vector<Array> arrays;
  for (const Column& column : columns) {
    fields.push_back(column.field);
    ArrayBuilder builder(column.field.type);
    for (int row = 0; row < 2; ++row) {
      if (column.append) {
        column.append(builder, row);
      } else {
        builder.AppendNull();
      }
    }
    builder.AppendNull();
    arrays.push_back(builder.Finish());
  }
  Result<RecordBatch> batch =
      RecordBatch::Make(MakeSchema(std::move(fields)), 3, std::move(arrays));
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

TEST(JsonWriterTest, RendersEveryType) {
  std::string out;
  WriteNdjson(AllTypesBatch(), &out);
  const std::string expected =
      R"({"null":null,"bool":true,"i8":-128,"i16":-32768,"i32":-2147483648,)"
      R"("i64":-9223372036854775808,"u8":0,"u16":0,"u32":0,"u64":0,)"
      R"("f16":0.0999755859375,"f32":0.1,)"
      R"("f64":1e+300,"f64b":-0,"s":"q\"b\\s/\n\t\u0001)"
      "\x7f"
      R"( é😀","ls":"large",)"
      R"("bin":"AP8=","lbin":"YWJjZA==","fsb":"YWJj","d32":"2024-01-02","d64":"2024-01-02",)"
      R"("ts_s":"2024-01-02T03:04:05Z","ts_ms":"2024-01-02T03:04:05.123Z",)"
      R"("ts_us":"1970-01-01T00:00:00.000001Z","ts_ns":"1677-09-21T00:12:43.145224192Z",)"
      R"("t32_s":"01:02:03",)"
      R"("t32_ms":"01:02:03.004","t64_us":"01:02:03.000004","t64_ns":"00:00:00.000000001",)"
      R"("dur":-5,"dec":"12345678901234567890.12"})"
      "\n"
      R"({"null":null,"bool":false,"i8":127,"i16":32767,"i32":2147483647,)"
      R"("i64":9223372036854775807,"u8":255,"u16":65535,"u32":4294967295,)"
      R"("u64":18446744073709551615,"f16":"-Infinity","f32":1e-45,"f64":"NaN",)"
      R"("f64b":"Infinity","s":"","ls":"nul\u0000x","bin":"","lbin":"YQ==","fsb":"AAAA",)"
      R"("d32":-2147483648,"d64":"2024-01-02T03:04:05.123Z","ts_s":9223372036854775807,)"
      R"("ts_ms":"1969-12-31T23:59:59.999Z","ts_us":"1969-12-31T23:59:59.999999Z",)"
      R"("ts_ns":"2262-04-11T23:47:16.854775807Z","t32_s":"23:59:59","t32_ms":"00:00:00.000",)"
      R"("t64_us":"23:59:59.999999","t64_ns":"23:59:59.999999999","dur":9223372036854775807,)"
      R"("dec":"-0.05"})"
      "\n";
  ASSERT_EQ(out.substr(0, expected.size()), expected);
  const std::string nulls = out.substr(expected.size());
  EXPECT_EQ(nulls.substr(0, 22), R"({"null":null,"bool":nu)");
  EXPECT_EQ(nulls.find("\"dec\":null}\n"), nulls.size() - 12);
}

TEST(JsonWriterTest, NdjsonRoundTripsEveryType) {
  const RecordBatch batch = AllTypesBatch();
  std::string ndjson;
  WriteNdjson(batch, &ndjson);
  Result<RecordBatch> back = ReadJson(ndjson, batch.schema());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(back->Equals(batch)) << ndjson;
}

TEST(JsonWriterTest, ArrayRoundTripsEveryType) {
  const RecordBatch batch = AllTypesBatch();
  const std::string array = WriteJsonArray(batch);
  EXPECT_EQ(array.front(), '[');
  EXPECT_EQ(array.back(), ']');
  Result<RecordBatch> back = ReadJson(array, batch.schema());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(back->Equals(batch));
}

TEST(JsonWriterTest, HalfFloatsPrintTheExactValueOfTheirBits) {
  const std::vector<std::pair<uint16_t, std::string>> cases = {
      {0x7BFF, "65504"},  // the largest half
      {0xFBFF, "-65504"},
      {0x2E66, "0.0999755859375"},  // the half nearest 0.1
      {0x3555, "0.333251953125"},
      {0x3C00, "1"},
      {0x3C01, "1.0009765625"},
      {0x0001, "5.960464477539063e-08"},  // the smallest subnormal, 2^-24
      {0x03FF, "6.097555160522461e-05"},  // the largest subnormal
      {0x0400, "6.103515625e-05"},        // the smallest normal, 2^-14
      {0x0000, "0"},
      {0x8000, "-0"},
      {0x7C00, "\"Infinity\""},
      {0xFC00, "\"-Infinity\""},
      {0x7E00, "\"NaN\""},
  };
  ArrayBuilder builder(DataType::Float16());
  for (const auto& [bits, text] : cases) builder.AppendPrimitive<uint16_t>(bits);
  Result<RecordBatch> batch =
      RecordBatch::Make(MakeSchema({Field("h", DataType::Float16())}),
                        static_cast<int64_t>(cases.size()), {builder.Finish()});
  ASSERT_TRUE(batch.ok());
  std::string expected;
  for (const auto& [bits, text] : cases) expected += "{\"h\":" + text + "}\n";
  std::string ndjson;
  WriteNdjson(*batch, &ndjson);
  EXPECT_EQ(ndjson, expected);
}

TEST(JsonWriterTest, EveryHalfFloatRoundTrips) {
  ArrayBuilder builder(DataType::Float16());
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const uint16_t half = static_cast<uint16_t>(bits);
    if (std::isnan(HalfToFloat(half))) continue;  // NaN payloads are not kept
    builder.AppendPrimitive<uint16_t>(half);
  }
  const int64_t length = builder.length();
  Result<RecordBatch> batch =
      RecordBatch::Make(MakeSchema({Field("h", DataType::Float16())}), length, {builder.Finish()});
  ASSERT_TRUE(batch.ok());
  std::string ndjson;
  WriteNdjson(*batch, &ndjson);
  Result<RecordBatch> back = ReadJson(ndjson, batch->schema());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(back->Equals(*batch));
}

TEST(JsonWriterTest, EmptyBatchAndSchema) {
  const RecordBatch empty;
  std::string out;
  WriteNdjson(empty, &out);
  EXPECT_EQ(out, "");
  EXPECT_EQ(WriteJsonArray(empty), "[]");
  Result<RecordBatch> no_columns = RecordBatch::Make(MakeSchema({}), 2, {});
  ASSERT_TRUE(no_columns.ok());
  EXPECT_EQ(WriteJsonArray(*no_columns), "[{},{}]");
}

TEST(JsonWriterTest, KeysAreEscaped) {
  ArrayBuilder builder(DataType::Int8());
  builder.AppendPrimitive<int8_t>(1);
  Result<RecordBatch> batch =
      RecordBatch::Make(MakeSchema({Field("a\"b\n", DataType::Int8())}), 1, {builder.Finish()});
  ASSERT_TRUE(batch.ok());
  std::string out;
  WriteNdjson(*batch, &out);
  EXPECT_EQ(out, "{\"a\\\"b\\n\":1}\n");
  Result<RecordBatch> back = ReadJson(out, batch->schema());
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->Equals(*batch));
}

TEST(JsonWriterTest, DecimalWiderThanItsPrecisionIsWrittenButNotReadBack) {
  // Other Arrow writers produce such values and the IPC reader accepts them (docs/json.md).
  ArrayBuilder builder(DataType::Decimal128(5, 2));
  builder.AppendDecimal128(1234567);
  Result<RecordBatch> batch = RecordBatch::Make(
      MakeSchema({Field("d", DataType::Decimal128(5, 2))}), 1, {builder.Finish()});
  ASSERT_TRUE(batch.ok());
  std::string out;
  WriteNdjson(*batch, &out);
  EXPECT_EQ(out, "{\"d\":\"12345.67\"}\n");
  Result<RecordBatch> back = ReadJson(out, batch->schema());
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(back.status().message(),
            "row 0, field 'd': out of range for decimal(5,2) (got \"12345.67\")");
}

TEST(JsonWriterTest, DuplicateFieldNamesAreWrittenButNotReadBack) {
  ArrayBuilder first(DataType::Int8());
  first.AppendPrimitive<int8_t>(1);
  ArrayBuilder second(DataType::Int8());
  second.AppendPrimitive<int8_t>(2);
  Result<RecordBatch> batch =
      RecordBatch::Make(MakeSchema({Field("a", DataType::Int8()), Field("a", DataType::Int8())}), 1,
                        {first.Finish(), second.Finish()});
  ASSERT_TRUE(batch.ok());
  std::string out;
  WriteNdjson(*batch, &out);
  EXPECT_EQ(out, "{\"a\":1,\"a\":2}\n");
  Result<RecordBatch> back = ReadJson(out, batch->schema());
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.status().message(), "row 0, field 'a': duplicate key");
}

}  // namespace
}  // namespace higgins::arrow::json
