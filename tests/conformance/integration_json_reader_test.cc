#include "tests/conformance/integration_json_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <string>

#include "higgins/arrow/float16.h"
#include "tests/conformance/gzip_file.h"
#include "tests/support/canonical_value.h"
#include "tests/support/whole_file.h"

namespace higgins::conformance {
namespace {

using arrow::DataType;
using arrow::TimeUnit;

// One field, one batch: {"name": "c", "type": TYPE} with the given column members.
std::string OneColumn(const std::string& type, int count, const std::string& column_members,
                      const std::string& field_extra = "") {
  return R"({"schema": {"fields": [{"name": "c", "nullable": true, "type": )" + type +
         R"(, "children": [])" + field_extra + R"(}]}, "batches": [{"count": )" +
         std::to_string(count) + R"(, "columns": [{"name": "c", "count": )" +
         std::to_string(count) + ", " + column_members + "}]}]}";
}

std::vector<std::string> Rendered(const arrow::ipc::ReadResult& r) {
  return testing::CanonicalLines(*r.schema, r.batches);
}

TEST(IntegrationJson, SixtyFourBitIntegersArriveAsStrings) {
  auto r = ParseIntegrationJson(
      OneColumn(R"({"name": "int", "isSigned": false, "bitWidth": 64})", 2,
                R"("VALIDITY": [1, 1], "DATA": ["18446744073709551615", "0"])"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->schema->field(0).type, DataType::UInt64());
  EXPECT_EQ(r->batches[0].column(0).Value<uint64_t>(0), UINT64_MAX);
}

TEST(IntegrationJson, NullSlotsIgnoreWhateverDataTheyHold) {
  auto r = ParseIntegrationJson(OneColumn(R"({"name": "int", "isSigned": true, "bitWidth": 8})", 3,
                                          R"("VALIDITY": [1, 0, 1], "DATA": [-128, 99999, 127])"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Rendered(*r).back(), R"({"c":127})");
  EXPECT_EQ(r->batches[0].column(0).null_count(), 1);
}

TEST(IntegrationJson, BinaryIsHexAndUtf8IsTextBothCheckedAgainstOffsets) {
  auto bin = ParseIntegrationJson(OneColumn(
      R"({"name": "largebinary"})", 3,
      R"("VALIDITY": [1, 0, 1], "OFFSET": ["0", "2", "5", "5"], "DATA": ["0aFF", "ABCDEF", ""])"));
  ASSERT_TRUE(bin.ok()) << bin.status().ToString();
  EXPECT_EQ(bin->batches[0].column(0).BinaryValue(0), "\x0a\xff");
  auto text = ParseIntegrationJson(OneColumn(
      R"({"name": "utf8"})", 2, R"("VALIDITY": [1, 1], "OFFSET": [0, 2, 4], "DATA": ["é", "ab"])"));
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_EQ(text->batches[0].column(0).BinaryValue(0), "\xc3\xa9");
}

TEST(IntegrationJson, OffsetsThatContradictTheDataAreCorruption) {
  auto r = ParseIntegrationJson(
      OneColumn(R"({"name": "utf8"})", 1, R"("VALIDITY": [1], "OFFSET": [0, 3], "DATA": ["ab"])"));
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
}

TEST(IntegrationJson, TemporalAndDecimalTypesKeepTheirParameters) {
  auto ts = ParseIntegrationJson(
      OneColumn(R"({"name": "timestamp", "unit": "NANOSECOND", "timezone": "US/Eastern"})", 1,
                R"("VALIDITY": [1], "DATA": ["-1"])"));
  ASSERT_TRUE(ts.ok()) << ts.status().ToString();
  EXPECT_EQ(ts->schema->field(0).type, DataType::Timestamp(TimeUnit::kNano, "US/Eastern"));
  auto time =
      ParseIntegrationJson(OneColumn(R"({"name": "time", "unit": "MILLISECOND", "bitWidth": 32})",
                                     1, R"("VALIDITY": [1], "DATA": [86400000])"));
  ASSERT_TRUE(time.ok()) << time.status().ToString();
  EXPECT_EQ(time->schema->field(0).type, DataType::Time32(TimeUnit::kMilli));
  auto dec = ParseIntegrationJson(OneColumn(
      R"({"name": "decimal", "precision": 38, "scale": 2})", 2,
      R"("VALIDITY": [1, 1], "DATA": ["-170141183460469231731687303715884105728", "12345"])"));
  ASSERT_TRUE(dec.ok()) << dec.status().ToString();
  EXPECT_EQ(dec->schema->field(0).type, DataType::Decimal128(38, 2));
  EXPECT_EQ(Rendered(*dec)[2], R"({"c":"-170141183460469231731687303715884105728"})");
}

TEST(IntegrationJson, DecimalBeyond128BitsIsCorruption) {
  auto r = ParseIntegrationJson(
      OneColumn(R"({"name": "decimal", "precision": 38, "scale": 0})", 1,
                R"("VALIDITY": [1], "DATA": ["170141183460469231731687303715884105728"])"));
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
}

TEST(IntegrationJson, FloatsNarrowToTheirPrecision) {
  auto r = ParseIntegrationJson(OneColumn(R"({"name": "floatingpoint", "precision": "HALF"})", 1,
                                          R"("VALIDITY": [1], "DATA": [1.5])"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->batches[0].column(0).Value<uint16_t>(0), arrow::FloatToHalf(1.5f));
}

TEST(IntegrationJson, NullTypeColumnsHaveOnlyACount) {
  auto r = ParseIntegrationJson(
      R"({"schema": {"fields": [{"name": "n", "nullable": true, "type": {"name": "null"},
          "children": []}]}, "batches": [{"count": 4, "columns": [{"name": "n", "count": 4}]}]})");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->batches[0].column(0).length(), 4);
  EXPECT_EQ(r->batches[0].column(0).type(), DataType::Null());
}

TEST(IntegrationJson, FieldAndSchemaMetadataKeepTheirOrder) {
  auto r = ParseIntegrationJson(
      R"({"schema": {"fields": [{"name": "b", "nullable": false, "type": {"name": "bool"},
          "children": [], "metadata": [{"key": "z", "value": "1"}, {"key": "a", "value": ""}]}],
          "metadata": [{"key": "k", "value": "v"}]},
          "batches": [{"count": 1, "columns": [{"name": "b", "count": 1, "VALIDITY": [1],
          "DATA": [true]}]}]})");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const arrow::Field& f = r->schema->field(0);
  EXPECT_FALSE(f.nullable);
  EXPECT_EQ(f.metadata, (arrow::KeyValueMetadata{{"z", "1"}, {"a", ""}}));
  EXPECT_EQ(r->schema->metadata(), (arrow::KeyValueMetadata{{"k", "v"}}));
}

TEST(IntegrationJson, NonNullableColumnWithANullIsRejected) {
  auto r = ParseIntegrationJson(
      R"({"schema": {"fields": [{"name": "b", "nullable": false, "type": {"name": "bool"},
          "children": []}]}, "batches": [{"count": 1, "columns": [{"name": "b", "count": 1,
          "VALIDITY": [0], "DATA": [true]}]}]})");
  EXPECT_FALSE(r.ok());
}

TEST(IntegrationJson, NestedTypesAreNotSupportedAndNamed) {
  auto r = ParseIntegrationJson(
      R"({"schema": {"fields": [{"name": "xs", "nullable": true, "type": {"name": "largelist"},
          "children": [{"name": "item", "nullable": true, "type": {"name": "bool"},
          "children": []}]}]}, "batches": []})");
  EXPECT_EQ(r.status().code(), StatusCode::kNotSupported);
  EXPECT_NE(r.status().message().find("field 'xs'"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().message().find("large_list"), std::string::npos) << r.status().ToString();
}

TEST(IntegrationJson, DictionaryEncodedFieldGetsTheValuesItsIndicesSelect) {
  std::string json = OneColumn(
      R"({"name": "utf8"})", 3, R"("VALIDITY": [1, 0, 1], "DATA": [1, 99, 0])",
      R"(, "dictionary": {"id": 4, "indexType": {"name": "int", "isSigned": true, "bitWidth": 8}})");
  json.pop_back();
  json += R"(, "dictionaries": [{"id": 4, "data": {"count": 2, "columns": [{"name": "DICT4",
      "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 5, 9], "DATA": ["Paris", "Lyon"]}]}}]})";
  auto r = ParseIntegrationJson(json);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->schema->field(0).type, DataType::Utf8());
  const arrow::Array& column = r->batches[0].column(0);
  EXPECT_EQ(column.BinaryValue(0), "Lyon");
  EXPECT_TRUE(column.IsNull(1));
  EXPECT_EQ(column.BinaryValue(2), "Paris");
}

TEST(IntegrationJson, Decimal256IsNotSupported) {
  auto dec = ParseIntegrationJson(
      OneColumn(R"({"name": "decimal", "precision": 40, "scale": 0, "bitWidth": 256})", 0,
                R"("VALIDITY": [], "DATA": [])"));
  EXPECT_EQ(dec.status().code(), StatusCode::kNotSupported);
  EXPECT_NE(dec.status().message().find("decimal256"), std::string::npos);
}

TEST(IntegrationJson, IntegerOutOfRangeForItsTypeIsCorruption) {
  auto r = ParseIntegrationJson(OneColumn(R"({"name": "int", "isSigned": false, "bitWidth": 16})",
                                          1, R"("VALIDITY": [1], "DATA": [65536])"));
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
  EXPECT_NE(r.status().message().find("row 0"), std::string::npos) << r.status().ToString();
}

TEST(IntegrationJson, ColumnNamedDifferentlyFromItsFieldIsCorruption) {
  auto r = ParseIntegrationJson(
      R"({"schema": {"fields": [{"name": "a", "nullable": true, "type": {"name": "bool"},
          "children": []}]}, "batches": [{"count": 0, "columns": [{"name": "b", "count": 0,
          "VALIDITY": [], "DATA": []}]}]})");
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
}

TEST(IntegrationJson, MalformedDocumentIsCorruption) {
  EXPECT_EQ(ParseIntegrationJson("{").status().code(), StatusCode::kCorruption);
  EXPECT_EQ(ParseIntegrationJson("{}").status().code(), StatusCode::kCorruption);
}

TEST(IntegrationJson, RowCountsAreReadEvenForUnsupportedTypes) {
  auto rows = IntegrationBatchRowCounts(
      R"({"schema": {"fields": [{"name": "u", "type": {"name": "union"}}]},
          "batches": [{"count": 0, "columns": []}, {"count": 11, "columns": []}]})");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(*rows, (std::vector<int64_t>{0, 11}));
}

class GzipFileTest : public ::testing::Test {
 protected:
  std::string Path(const char* name) {
    return (std::filesystem::temp_directory_path() /
            (std::string("higgins_gzip_test_") + std::to_string(::getpid()) + "_" + name))
        .string();
  }
};

TEST_F(GzipFileTest, RoundTripsWhatZlibWrote) {
  const std::string path = Path("ok.gz");
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(gzwrite(f, "hello gold", 10), 10);
  ASSERT_EQ(gzclose(f), Z_OK);
  auto text = ReadGzipFile(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_EQ(*text, "hello gold");
}

TEST_F(GzipFileTest, PlainTextIsNotAcceptedAsGzip) {
  const std::string path = Path("plain.gz");
  ASSERT_TRUE(testing::WriteWholeFile(
                  path, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>("{}"), 2))
                  .ok());
  auto text = ReadGzipFile(path);
  std::filesystem::remove(path);
  EXPECT_EQ(text.status().code(), StatusCode::kCorruption);
}

TEST_F(GzipFileTest, MissingFileIsAnIOError) {
  EXPECT_EQ(ReadGzipFile(Path("missing.gz")).status().code(), StatusCode::kIOError);
}

}  // namespace
}  // namespace higgins::conformance
