#include "arrow/json/csv_reader.h"

#include <gtest/gtest.h>

namespace higgins::arrow::json {
namespace {

SchemaPtr PeopleSchema() {
  return MakeSchema({Field("id", DataType::Int32(), false), Field("name", DataType::Utf8()),
                     Field("joined", DataType::Date32()),
                     Field("balance", DataType::Decimal128(10, 2))});
}

RecordBatch ReadOk(std::string_view csv, const SchemaPtr& schema,
                   const CsvReadOptions& options = {}) {
  Result<RecordBatch> batch = ReadCsv(csv, schema, options);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return batch.ok() ? *batch : RecordBatch();
}

void ExpectError(std::string_view csv, const SchemaPtr& schema, StatusCode code,
                 std::string_view message, const CsvReadOptions& options = {}) {
  Result<RecordBatch> batch = ReadCsv(csv, schema, options);
  ASSERT_FALSE(batch.ok()) << csv;
  EXPECT_EQ(batch.status().code(), code) << batch.status().ToString();
  EXPECT_EQ(batch.status().message(), message);
}

TEST(CsvReaderTest, HeaderMapsColumnsByName) {
  RecordBatch batch = ReadOk(
      "name,balance,id,joined\n"
      "Ann,12.50,1,2024-01-02\n"
      "Bob,-3,2,19724\n",
      PeopleSchema());
  ASSERT_EQ(batch.num_rows(), 2);
  EXPECT_EQ(batch.column(0).Value<int32_t>(1), 2);
  EXPECT_EQ(batch.column(1).BinaryValue(0), "Ann");
  EXPECT_EQ(batch.column(2).Value<int32_t>(0), 19724);
  EXPECT_EQ(batch.column(2).Value<int32_t>(1), 19724);
  EXPECT_TRUE(batch.column(3).Decimal128Value(0) == 1250);
  EXPECT_TRUE(batch.column(3).Decimal128Value(1) == -300);
}

TEST(CsvReaderTest, QuotingEscapesAndEmbeddedNewlines) {
  RecordBatch batch = ReadOk(
      "id,name\r\n"
      "1,\"Smith, Ann\"\r\n"
      "2,\"say \"\"hi\"\"\"\r\n"
      "3,\"two\nlines\"\r\n"
      "4,\"\"\r\n"
      "5,\n"
      "6,\"\"\"\"",
      PeopleSchema());
  ASSERT_EQ(batch.num_rows(), 6);
  const Array& name = batch.column(1);
  EXPECT_EQ(name.BinaryValue(0), "Smith, Ann");
  EXPECT_EQ(name.BinaryValue(1), "say \"hi\"");
  EXPECT_EQ(name.BinaryValue(2), "two\nlines");
  EXPECT_TRUE(name.IsValid(3));  // quoted "" is the empty string
  EXPECT_EQ(name.BinaryValue(3), "");
  EXPECT_TRUE(name.IsNull(4));  // empty unquoted is null
  EXPECT_EQ(name.BinaryValue(5), "\"");
  EXPECT_EQ(batch.column(2).null_count(), 6);  // not in the header
}

TEST(CsvReaderTest, FinalLineWithAndWithoutNewline) {
  SchemaPtr schema = MakeSchema({Field("a", DataType::Int8()), Field("b", DataType::Int8())});
  for (std::string_view csv : {"a,b\n1,2", "a,b\n1,2\n", "a,b\r\n1,2\r\n", "a,b\n\n1,2\n\n"}) {
    RecordBatch batch = ReadOk(csv, schema);
    ASSERT_EQ(batch.num_rows(), 1) << csv;
    EXPECT_EQ(batch.column(1).Value<int8_t>(0), 2);
  }
  RecordBatch trailing_empty = ReadOk("a,b\n1,", schema);
  ASSERT_EQ(trailing_empty.num_rows(), 1);
  EXPECT_TRUE(trailing_empty.column(1).IsNull(0));
  EXPECT_EQ(ReadOk("a,b\n", schema).num_rows(), 0);
  EXPECT_EQ(ReadOk("\xEF\xBB\xBF"
                   "a,b\n1,2",
                   schema)
                .num_rows(),
            1);
}

TEST(CsvReaderTest, LoneCrAtTheEndOfInputEndsTheLastLine) {
  SchemaPtr schema = MakeSchema({Field("a", DataType::Int8()), Field("b", DataType::Utf8())});
  for (std::string_view csv : {"a,b\n1,x\r", "a,b\r\n1,\"x\"\r", "a,b\n1,x\n\r"}) {
    RecordBatch batch = ReadOk(csv, schema);
    ASSERT_EQ(batch.num_rows(), 1) << csv;
    EXPECT_EQ(batch.column(1).BinaryValue(0), "x") << csv;
  }
  EXPECT_EQ(ReadOk("a,b\r", schema).num_rows(), 0);  // the header alone
  RecordBatch ints = ReadOk("b,a\nx,1\r", schema);
  EXPECT_EQ(ints.column(0).Value<int8_t>(0), 1);
  // A lone CR anywhere else is data.
  RecordBatch inner = ReadOk("a,b\n1,x\ry\r", schema);
  EXPECT_EQ(inner.column(1).BinaryValue(0), "x\ry");
  ExpectError("b,a\nx,1\r2\n", schema, StatusCode::kInvalidArgument,
              "row 0, field 'a': int8 expects an integer (got \"1?2\")");
}

TEST(CsvReaderTest, OneColumnEmptyLineIsSkippedNotANullRow) {
  SchemaPtr schema = MakeSchema({Field("a", DataType::Int8())});
  RecordBatch batch = ReadOk("a\n1\n\n2\n", schema);
  ASSERT_EQ(batch.num_rows(), 2);
  EXPECT_EQ(batch.column(0).null_count(), 0);
  ExpectError("a\n1\n\"\"\n", schema, StatusCode::kInvalidArgument,
              "row 1, field 'a': int8 expects an integer (got \"\")");
}

TEST(CsvReaderTest, RaggedRowsAreErrors) {
  ExpectError("id,name\n1,a\n2\n", PeopleSchema(), StatusCode::kInvalidArgument,
              "row 1: expected 2 fields, got 1");
  ExpectError("id,name\n1,a,x\n", PeopleSchema(), StatusCode::kInvalidArgument,
              "row 0: expected 2 fields, got 3");
}

TEST(CsvReaderTest, MalformedQuoting) {
  ExpectError("id,name\n1,\"abc\n", PeopleSchema(), StatusCode::kInvalidArgument,
              "row 0: unterminated quoted field");
  ExpectError("id,name\n1,ab\"c\n", PeopleSchema(), StatusCode::kInvalidArgument,
              "row 0: quote inside an unquoted field");
  ExpectError("id,name\n1,a\n2,\"b\"c\n", PeopleSchema(), StatusCode::kInvalidArgument,
              "row 1: unexpected text after a closing quote");
  ExpectError("id,\"na\"me\n", PeopleSchema(), StatusCode::kInvalidArgument,
              "header: unexpected text after a closing quote");
}

TEST(CsvReaderTest, ValueErrorsNameRowAndField) {
  ExpectError("id,name\n1,a\nx,b\n", PeopleSchema(), StatusCode::kInvalidArgument,
              "row 1, field 'id': int32 expects an integer (got \"x\")");
  ExpectError("id,balance\n1,1.234\n", PeopleSchema(), StatusCode::kInvalidArgument,
              "row 0, field 'balance': more fractional digits than the scale (2) of "
              "decimal(10,2) (got 1.234)");
  ExpectError("id\n2147483648\n", PeopleSchema(), StatusCode::kOutOfRange,
              "row 0, field 'id': out of range for int32 (got 2147483648)");
  ExpectError("id,joined\n1,2024-02-30\n", PeopleSchema(), StatusCode::kInvalidArgument,
              "row 0, field 'joined': not a date (YYYY-MM-DD) for date32 (got \"2024-02-30\")");
  ExpectError("id,name\n,a\n", PeopleSchema(), StatusCode::kInvalidArgument,
              "row 0, field 'id': empty (null) value for a non-nullable field");
  ExpectError("id,name\n\"\",a\n", PeopleSchema(), StatusCode::kInvalidArgument,
              "row 0, field 'id': int32 expects an integer (got \"\")");
  ExpectError("id,name\n1,\xFF\n", PeopleSchema(), StatusCode::kInvalidArgument,
              "row 0, field 'name': invalid UTF-8 for string (got \"?\")");
}

TEST(CsvReaderTest, HeaderErrors) {
  ExpectError("", PeopleSchema(), StatusCode::kInvalidArgument, "CSV input has no header row");
  ExpectError("id,nickname\n", PeopleSchema(), StatusCode::kInvalidArgument,
              "header: column 'nickname' is not in the schema");
  ExpectError("id,name,id\n", PeopleSchema(), StatusCode::kInvalidArgument,
              "header: duplicate column 'id'");
  ExpectError("name\n", PeopleSchema(), StatusCode::kInvalidArgument,
              "header: no column for non-nullable field 'id'");
  CsvReadOptions ignore;
  ignore.ignore_unknown_columns = true;
  RecordBatch batch = ReadOk("nickname,id\nx,1\n", PeopleSchema(), ignore);
  ASSERT_EQ(batch.num_rows(), 1);
  EXPECT_EQ(batch.column(0).Value<int32_t>(0), 1);
}

TEST(CsvReaderTest, OtherTypesFromText) {
  SchemaPtr schema = MakeSchema({Field("b", DataType::Bool()), Field("f", DataType::Float64()),
                                 Field("ts", DataType::Timestamp(TimeUnit::kMilli)),
                                 Field("bin", DataType::Binary()),
                                 Field("t", DataType::Time32(TimeUnit::kSecond))});
  RecordBatch batch = ReadOk(
      "b,f,ts,bin,t\n"
      "true,-1.5e2,2024-01-02T03:04:05.123+00:00,aGk=,01:02:03\n"
      "false,NaN,1704164645123,\"\",3723\n",
      schema);
  ASSERT_EQ(batch.num_rows(), 2);
  EXPECT_TRUE(batch.column(0).BoolValue(0));
  EXPECT_EQ(batch.column(1).Value<double>(0), -150.0);
  EXPECT_EQ(batch.column(2).Value<int64_t>(0), 1704164645123);
  EXPECT_EQ(batch.column(2).Value<int64_t>(1), 1704164645123);
  EXPECT_EQ(batch.column(3).BinaryValue(0), "hi");
  EXPECT_EQ(batch.column(3).BinaryValue(1), "");
  EXPECT_EQ(batch.column(4).Value<int32_t>(1), 3723);
}

TEST(CsvReaderTest, DelimiterAndMaxRows) {
  SchemaPtr schema = MakeSchema({Field("a", DataType::Utf8()), Field("b", DataType::Int8())});
  CsvReadOptions options;
  options.delimiter = ';';
  options.max_rows = 2;
  RecordBatch batch = ReadOk("a;b\n\"x;y\";1\nz;2\n", schema, options);
  ASSERT_EQ(batch.num_rows(), 2);
  EXPECT_EQ(batch.column(0).BinaryValue(0), "x;y");
  ExpectError("a;b\nx;1\ny;2\nz;3\n", schema, StatusCode::kResourceExhausted,
              "more than 2 rows (max_rows)", options);
}

}  // namespace
}  // namespace higgins::arrow::json
