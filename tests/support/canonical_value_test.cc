#include "tests/support/canonical_value.h"

#include <gtest/gtest.h>

#include <limits>

#include "higgins/arrow/float16.h"

namespace higgins::testing {
namespace {

using arrow::Array;
using arrow::ArrayBuilder;
using arrow::DataType;
using arrow::TimeUnit;

template <typename T>
Array Primitive(DataType type, std::initializer_list<T> values, bool trailing_null = true) {
  ArrayBuilder b(std::move(type));
  for (T v : values) b.AppendPrimitive<T>(v);
  if (trailing_null) b.AppendNull();
  return b.Finish();
}

std::vector<std::string> Render(const Array& a) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < a.length(); ++i) out.push_back(CanonicalValue(a, i));
  return out;
}

using Lines = std::vector<std::string>;

TEST(CanonicalValue, NarrowIntegersAreNumbersAndWideOnesStrings) {
  EXPECT_EQ(Render(Primitive<int8_t>(DataType::Int8(), {-128, 127})),
            (Lines{"-128", "127", "null"}));
  EXPECT_EQ(Render(Primitive<uint32_t>(DataType::UInt32(), {4294967295u})),
            (Lines{"4294967295", "null"}));
  EXPECT_EQ(Render(Primitive<int64_t>(DataType::Int64(), {std::numeric_limits<int64_t>::min()})),
            (Lines{"\"-9223372036854775808\"", "null"}));
  EXPECT_EQ(Render(Primitive<uint64_t>(DataType::UInt64(), {18446744073709551615u})),
            (Lines{"\"18446744073709551615\"", "null"}));
}

TEST(CanonicalValue, TemporalValuesAreRawCountsInTheirUnit) {
  EXPECT_EQ(Render(Primitive<int32_t>(DataType::Date32(), {-1, 19000})),
            (Lines{"-1", "19000", "null"}));
  EXPECT_EQ(Render(Primitive<int64_t>(DataType::Date64(), {86400000})),
            (Lines{"\"86400000\"", "null"}));
  EXPECT_EQ(Render(Primitive<int64_t>(DataType::Timestamp(TimeUnit::kNano, "UTC"), {-5})),
            (Lines{"\"-5\"", "null"}));
  EXPECT_EQ(Render(Primitive<int32_t>(DataType::Time32(TimeUnit::kMilli), {1000})),
            (Lines{"1000", "null"}));
}

TEST(CanonicalValue, FloatsPrintAsJavaScriptWithSpecialValuesQuoted) {
  EXPECT_EQ(Render(Primitive<double>(DataType::Float64(),
                                     {1.5, -0.0, std::numeric_limits<double>::infinity(),
                                      std::numeric_limits<double>::quiet_NaN()})),
            (Lines{"1.5", "\"-0\"", "\"Infinity\"", "\"NaN\"", "null"}));
  EXPECT_EQ(Render(Primitive<float>(DataType::Float32(), {0.1f}, false)),
            (Lines{"0.10000000149011612"}));
  EXPECT_EQ(Render(Primitive<uint16_t>(DataType::Float16(), {arrow::FloatToHalf(-0.25f)}, false)),
            (Lines{"-0.25"}));
}

TEST(CanonicalValue, BinaryIsLowerCaseHexAndTextIsJsonQuoted) {
  ArrayBuilder bin(DataType::LargeBinary());
  ASSERT_TRUE(bin.AppendBinary(std::string_view("\x00\xab", 2)).ok());
  ASSERT_TRUE(bin.AppendBinary("").ok());
  EXPECT_EQ(Render(bin.Finish()), (Lines{"\"00ab\"", "\"\""}));
  ArrayBuilder text(DataType::Utf8());
  ASSERT_TRUE(text.AppendBinary("say \"hi\"\n").ok());
  EXPECT_EQ(Render(text.Finish()), (Lines{R"("say \"hi\"\n")"}));
}

TEST(CanonicalValue, DecimalIsTheUnscaledIntegerAsAString) {
  __int128 big = static_cast<__int128>(-1) * 1000000000000000000 * 1000000000000000000;
  EXPECT_EQ(Render(Primitive<__int128>(DataType::Decimal128(38, 2), {big, 12345})),
            (Lines{"\"-1000000000000000000000000000000000000\"", "\"12345\"", "null"}));
}

TEST(CanonicalValue, NullTypeIsAlwaysNull) {
  EXPECT_EQ(Render(arrow::MakeNullArray(DataType::Null(), 2)), (Lines{"null", "null"}));
}

TEST(CanonicalLines, SchemaThenBatchHeaderThenRows) {
  auto schema = arrow::MakeSchema(
      {arrow::Field("n", DataType::Int32(), false), arrow::Field("s", DataType::Utf8())});
  ArrayBuilder n(DataType::Int32());
  n.AppendPrimitive<int32_t>(7);
  ArrayBuilder s(DataType::Utf8());
  s.AppendNull();
  auto batch = arrow::RecordBatch::Make(schema, 1, {n.Finish(), s.Finish()});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(CanonicalLines(*schema, {*batch}),
            (Lines{R"({"schema":[{"name":"n","type":"int32","nullable":false},)"
                   R"({"name":"s","type":"utf8","nullable":true}]})",
                   R"({"batch":0,"rows":1})", R"({"n":7,"s":null})"}));
}

}  // namespace
}  // namespace higgins::testing
