#include "arrow/json/json_reader.h"

#include <gtest/gtest.h>

#include <cmath>

#include "arrow/validate.h"

namespace higgins::arrow::json {
namespace {

SchemaPtr FlightSchema() {
  return MakeSchema({Field("date", DataType::Utf8()), Field("delay", DataType::Int32()),
                     Field("distance", DataType::Int32()), Field("origin", DataType::Utf8()),
                     Field("destination", DataType::Utf8())});
}

constexpr std::string_view kFlight1 =
    R"({"date":"2001/01/14 21:55","delay":0,"distance":480,"origin":"SAN","destination":"SMF"})";
constexpr std::string_view kFlight2 =
    R"({"date":"2001/01/14 23:10","delay":-5,"distance":1200,"origin":"LAX","destination":"SEA"})";

RecordBatch ReadOk(std::string_view json, const SchemaPtr& schema,
                   const JsonReadOptions& options = {}) {
  Result<RecordBatch> batch = ReadJson(json, schema, options);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return batch.ok() ? *batch : RecordBatch();
}

void ExpectError(std::string_view json, const SchemaPtr& schema, StatusCode code,
                 std::string_view message, const JsonReadOptions& options = {}) {
  Result<RecordBatch> batch = ReadJson(json, schema, options);
  ASSERT_FALSE(batch.ok()) << json;
  EXPECT_EQ(batch.status().code(), code) << batch.status().ToString();
  EXPECT_EQ(batch.status().message(), message);
}

constexpr std::string_view kImproperStructure =
    "The JSON document has an improper structure: missing or superfluous commas, braces, "
    "missing keys, etc.";

void ExpectFlights(const RecordBatch& batch) {
  ASSERT_EQ(batch.num_rows(), 2);
  EXPECT_EQ(batch.column(0).BinaryValue(0), "2001/01/14 21:55");
  EXPECT_EQ(batch.column(1).Value<int32_t>(1), -5);
  EXPECT_EQ(batch.column(2).Value<int32_t>(0), 480);
  EXPECT_EQ(batch.column(3).BinaryValue(1), "LAX");
  EXPECT_EQ(batch.column(4).BinaryValue(0), "SMF");
}

TEST(JsonReaderTest, ArrayOfObjects) {
  ExpectFlights(
      ReadOk("[" + std::string(kFlight1) + ",\n " + std::string(kFlight2) + "]", FlightSchema()));
}

TEST(JsonReaderTest, NdjsonWithBlankLinesAndCrlf) {
  ExpectFlights(
      ReadOk("\n" + std::string(kFlight1) + "\r\n\r\n\n" + std::string(kFlight2), FlightSchema()));
}

TEST(JsonReaderTest, SingleObject) {
  RecordBatch batch = ReadOk(kFlight1, FlightSchema());
  EXPECT_EQ(batch.num_rows(), 1);
  JsonReadOptions object_only;
  object_only.format = JsonFormat::kObject;
  EXPECT_EQ(ReadOk(kFlight1, FlightSchema(), object_only).num_rows(), 1);
  ExpectError(std::string(kFlight1) + "\n" + std::string(kFlight2), FlightSchema(),
              StatusCode::kInvalidArgument,
              "row 1: malformed JSON near byte 88: more than one JSON value", object_only);
  ExpectError("  ", FlightSchema(), StatusCode::kInvalidArgument,
              "expected one JSON object, got no JSON value", object_only);
}

TEST(JsonReaderTest, EmptyInputs) {
  EXPECT_EQ(ReadOk("", FlightSchema()).num_rows(), 0);
  EXPECT_EQ(ReadOk(" \n ", FlightSchema()).num_rows(), 0);
  EXPECT_EQ(ReadOk("[]", FlightSchema()).num_rows(), 0);
  EXPECT_EQ(ReadOk("[]", FlightSchema()).num_columns(), 5);
}

TEST(JsonReaderTest, ExplicitFormatsAreEnforced) {
  JsonReadOptions array_only;
  array_only.format = JsonFormat::kArray;
  ExpectError(
      kFlight1, FlightSchema(), StatusCode::kInvalidArgument,
      "expected a JSON array of objects (got " + std::string(kFlight1.substr(0, 40)) + "...)",
      array_only);
  JsonReadOptions ndjson;
  ndjson.format = JsonFormat::kNdjson;
  ExpectError("[" + std::string(kFlight1) + "]", FlightSchema(), StatusCode::kInvalidArgument,
              "row 0: expected a JSON object (got [" + std::string(kFlight1.substr(0, 39)) + "...)",
              ndjson);
}

TEST(JsonReaderTest, NullAndMissingKeysAreNull) {
  RecordBatch batch = ReadOk(R"([{"delay":null,"origin":"SAN"},{}])", FlightSchema());
  ASSERT_EQ(batch.num_rows(), 2);
  for (int c = 0; c < 5; ++c) {
    EXPECT_EQ(batch.column(c).null_count(), c == 3 ? 1 : 2) << c;
  }
  EXPECT_EQ(batch.column(3).BinaryValue(0), "SAN");
}

TEST(JsonReaderTest, NonNullableFields) {
  SchemaPtr schema =
      MakeSchema({Field("id", DataType::Utf8(), false), Field("n", DataType::Int8())});
  EXPECT_EQ(ReadOk(R"({"id":"a"})", schema).num_rows(), 1);
  ExpectError("{\"id\":\"a\"}\n{\"id\":null}", schema, StatusCode::kInvalidArgument,
              "row 1, field 'id': null for a non-nullable field");
  ExpectError(R"([{"id":"a"},{"id":"b"},{"n":1}])", schema, StatusCode::kInvalidArgument,
              "row 2, field 'id': missing value for a non-nullable field");
}

TEST(JsonReaderTest, ValueErrorsNameRowAndField) {
  SchemaPtr schema = MakeSchema({Field("id", DataType::Utf8()), Field("n", DataType::Int8())});
  ExpectError("{\"n\":127}\n{\"n\":128}", schema, StatusCode::kOutOfRange,
              "row 1, field 'n': out of range for int8 (got 128)");
  ExpectError(R"([{"n":-128},{"n":1.5}])", schema, StatusCode::kInvalidArgument,
              "row 1, field 'n': not an integer (fractional part) for int8 (got 1.5)");
  ExpectError(R"({"id":12})", schema, StatusCode::kInvalidArgument,
              "row 0, field 'id': string expects a string (got 12)");
  ExpectError(R"({"n":"12"})", schema, StatusCode::kInvalidArgument,
              "row 0, field 'n': int8 expects an integer (got \"12\")");
  ExpectError(R"({"n":{"a": [1, 2]}})", schema, StatusCode::kInvalidArgument,
              "row 0, field 'n': int8 expects an integer (got {\"a\": [1, 2]})");
  ExpectError(R"({"n":[1]})", schema, StatusCode::kInvalidArgument,
              "row 0, field 'n': int8 expects an integer (got [1])");
  ExpectError(R"({"id":true})", schema, StatusCode::kInvalidArgument,
              "row 0, field 'id': string expects a string (got true)");
}

TEST(JsonReaderTest, UnknownKeys) {
  SchemaPtr schema = MakeSchema({Field("id", DataType::Utf8())});
  ExpectError(R"({"id":"a","extra":1})", schema, StatusCode::kInvalidArgument,
              "row 0, field 'extra': not in the schema");
  JsonReadOptions ignore;
  ignore.unknown_fields = UnknownFields::kIgnore;
  RecordBatch batch =
      ReadOk(R"({"x":{"y":[1,{"z":null}],"w":"\n"},"id":"a","v":-1.5e3,"t":true})", schema, ignore);
  ASSERT_EQ(batch.num_rows(), 1);
  EXPECT_EQ(batch.column(0).BinaryValue(0), "a");
  // Ignored values are still fully validated.
  ExpectError(R"({"x":[1,tru],"id":"a"})", schema, StatusCode::kInvalidArgument,
              "row 0: malformed JSON near byte 8: invalid literal 'tru'", ignore);
  ExpectError(R"({"x":{"a":01},"id":"a"})", schema, StatusCode::kInvalidArgument,
              "row 0: malformed JSON near byte 10: invalid number '01'", ignore);
}

TEST(JsonReaderTest, DuplicateKeysAreRejected) {
  SchemaPtr schema = MakeSchema({Field("id", DataType::Utf8()), Field("n", DataType::Int32())});
  ExpectError(R"({"id":"a","n":1,"id":"b"})", schema, StatusCode::kInvalidArgument,
              "row 0, field 'id': duplicate key");
  ExpectError("{\"id\":\"a\"}\n{\"n\":1,\"n\":null}", schema, StatusCode::kInvalidArgument,
              "row 1, field 'n': duplicate key");
  // The same key written with an escape is still the same key.
  ExpectError(R"({"id":"a","\u0069d":"b"})", schema, StatusCode::kInvalidArgument,
              "row 0, field 'id': duplicate key");
}

TEST(JsonReaderTest, EscapedKeysAreUnescapedBeforeMatching) {
  SchemaPtr schema = MakeSchema({Field("id", DataType::Utf8()), Field("a\"b\\c", DataType::Int32()),
                                 Field("caf\xC3\xA9", DataType::Int32())});
  RecordBatch batch = ReadOk(R"({"\u0069\u0064" : "x", "a\"b\\c":7, "caf\u00e9":8})", schema);
  ASSERT_EQ(batch.num_rows(), 1);
  EXPECT_EQ(batch.column(0).BinaryValue(0), "x");
  EXPECT_EQ(batch.column(1).Value<int32_t>(0), 7);
  EXPECT_EQ(batch.column(2).Value<int32_t>(0), 8);
}

TEST(JsonReaderTest, KeysInAnyOrder) {
  RecordBatch batch = ReadOk(
      R"([{"destination":"SMF","origin":"SAN","distance":480,"delay":0,"date":"d"},
          {"delay":1,"date":"e"}])",
      FlightSchema());
  ASSERT_EQ(batch.num_rows(), 2);
  EXPECT_EQ(batch.column(4).BinaryValue(0), "SMF");
  EXPECT_EQ(batch.column(0).BinaryValue(1), "e");
  EXPECT_EQ(batch.column(1).Value<int32_t>(1), 1);
  EXPECT_TRUE(batch.column(4).IsNull(1));
}

TEST(JsonReaderTest, StringEscapesAndUnicode) {
  SchemaPtr schema = MakeSchema({Field("s", DataType::Utf8())});
  RecordBatch batch = ReadOk(R"({"s":"a\"b\\c\/\n\t\u00e9\ud83d\ude00 \u0000"})", schema);
  EXPECT_EQ(batch.column(0).BinaryValue(0),
            std::string_view("a\"b\\c/\n\t\xC3\xA9\xF0\x9F\x98\x80 \0", 16));
}

TEST(JsonReaderTest, MalformedJson) {
  SchemaPtr schema = MakeSchema({Field("id", DataType::Utf8()), Field("n", DataType::Int32())});
  ExpectError("{\"n\":1}\n{\"n\":2", schema, StatusCode::kInvalidArgument,
              "row 1: malformed JSON near byte 14: the text ends inside an object");
  ExpectError(R"({"n":1}})", schema, StatusCode::kInvalidArgument,
              "row 0: malformed JSON near byte 7: '}' closes nothing");
  ExpectError(R"([{"n":1},{"n":2}] [])", schema, StatusCode::kInvalidArgument,
              "row 2: malformed JSON near byte 18: content after the array");
  ExpectError(R"([{"n":1},{"n":12x}])", schema, StatusCode::kInvalidArgument,
              "row 1: malformed JSON near byte 14: invalid number '12x'");
  ExpectError(R"({"id":"\q"})", schema, StatusCode::kInvalidArgument,
              "row 0: malformed JSON near byte 6: Problem while parsing a string");
  // A lone surrogate escape cannot become UTF-8.
  ExpectError(R"({"id":"\ud800"})", schema, StatusCode::kInvalidArgument,
              "row 0: malformed JSON near byte 6: Problem while parsing a string");
  ExpectError(R"({"n":nul})", schema, StatusCode::kInvalidArgument,
              "row 0: malformed JSON near byte 5: invalid literal 'nul'");
  ExpectError("{\"id\":\"\xFF\"}", schema, StatusCode::kInvalidArgument,
              "malformed JSON: The input is not valid UTF-8");
  ExpectError("[{\"id\":\"abc}]", schema, StatusCode::kInvalidArgument,
              "row 0: malformed JSON near byte 13: the text ends inside a string");
  ExpectError(R"({"n":1 "id":"a"})", schema, StatusCode::kInvalidArgument,
              "row 0: malformed JSON near byte 5: " + std::string(kImproperStructure));
  ExpectError(R"([{"n":1},])", schema, StatusCode::kInvalidArgument,
              "row 1: malformed JSON near byte 9: " + std::string(kImproperStructure));
}

TEST(JsonReaderTest, ContentAfterTheArrayOfAnyKindIsReportedWithItsPosition) {
  SchemaPtr schema = MakeSchema({Field("v", DataType::Int32())});
  // simdjson alone reports input that does not end with the root's bracket as "ended early".
  for (std::string_view tail :
       {"x", "5", "{}", ",", "null", "[1]", "]", "}", "\"a]\"", "[\"", "\xFF"}) {
    ExpectError(R"([{"v":1}] )" + std::string(tail) + " \n", schema, StatusCode::kInvalidArgument,
                "row 1: malformed JSON near byte 10: content after the array");
  }
  SchemaPtr with_string = MakeSchema({Field("v", DataType::Int32()), Field("s", DataType::Utf8())});
  ExpectError(R"( [{"v":1},{"s":"]}\"["}]x)", with_string, StatusCode::kInvalidArgument,
              "row 2: malformed JSON near byte 24: content after the array");
  // The rows come first in the input, so their errors come first.
  ExpectError(R"([{"v":1},{"v":"a"}] x)", schema, StatusCode::kInvalidArgument,
              "row 1, field 'v': int32 expects an integer (got \"a\")");
  JsonReadOptions array_only;
  array_only.format = JsonFormat::kArray;
  ExpectError(R"({"v":1} x)", schema, StatusCode::kInvalidArgument,
              R"(expected a JSON array of objects (got {"v":1} x))", array_only);
  // An array that never closes is still reported as such.
  ExpectError(R"([{"v":1}, {"v":2})", schema, StatusCode::kInvalidArgument,
              "row 0: malformed JSON near byte 17: the text ends inside an array");
}

TEST(JsonReaderTest, ContentAfterTheOneObjectIsReportedWithItsPosition) {
  SchemaPtr schema = MakeSchema({Field("v", DataType::Int32())});
  JsonReadOptions object_only;
  object_only.format = JsonFormat::kObject;
  for (std::string_view tail : {"x", "5", "[]", ",", "null", "{}"}) {
    ExpectError(R"({"v":1} )" + std::string(tail), schema, StatusCode::kInvalidArgument,
                "row 1: malformed JSON near byte 8: more than one JSON value", object_only);
  }
}

TEST(JsonReaderTest, RowsMustBeObjects) {
  SchemaPtr schema = MakeSchema({Field("n", DataType::Int32())});
  ExpectError(R"([{"n":1}, 5])", schema, StatusCode::kInvalidArgument,
              "row 1: expected a JSON object (got 5])");
  ExpectError("{\"n\":1}\n\"x\"\n", schema, StatusCode::kInvalidArgument,
              "row 1: expected a JSON object (got \"x\")");
}

TEST(JsonReaderTest, MaxRows) {
  SchemaPtr schema = MakeSchema({Field("n", DataType::Int32())});
  JsonReadOptions options;
  options.max_rows = 2;
  EXPECT_EQ(ReadOk("{\"n\":1}\n{\"n\":2}", schema, options).num_rows(), 2);
  ExpectError("{\"n\":1}\n{\"n\":2}\n{\"n\":3}", schema, StatusCode::kResourceExhausted,
              "more than 2 rows (max_rows)", options);
  ExpectError(R"([{"n":1},{"n":2},{"n":3}])", schema, StatusCode::kResourceExhausted,
              "more than 2 rows (max_rows)", options);
}

TEST(JsonReaderTest, ByteOrderMarkIsSkipped) {
  SchemaPtr schema = MakeSchema({Field("n", DataType::Int32())});
  EXPECT_EQ(ReadOk("\xEF\xBB\xBF[{\"n\":1}]", schema).num_rows(), 1);
}

TEST(JsonReaderTest, ReusesThreadStateAcrossSizes) {
  SchemaPtr schema = MakeSchema({Field("n", DataType::Int64())});
  std::string big;
  for (int i = 0; i < 5000; ++i) big += "{\"n\":" + std::to_string(i) + "}\n";
  for (int round = 0; round < 3; ++round) {
    RecordBatch large = ReadOk(big, schema);
    ASSERT_EQ(large.num_rows(), 5000);
    EXPECT_EQ(large.column(0).Value<int64_t>(4999), 4999);
    RecordBatch small = ReadOk(R"({"n":7})", schema);
    ASSERT_EQ(small.num_rows(), 1);
    EXPECT_EQ(small.column(0).Value<int64_t>(0), 7);
  }
}

TEST(JsonReaderTest, FastPathFallsBackToTheGeneralRules) {
  SchemaPtr schema = MakeSchema({Field("id", DataType::Int8()), Field("f", DataType::Float64()),
                                 Field("s", DataType::Utf8()), Field("u", DataType::UInt32())});
  RecordBatch batch = ReadOk(
      R"([{"id":3.0,"f":1,"s":"a\u0062","u":4294967295},
          {"id":null,"f":"NaN","s":null,"u":1e2}])",
      schema);
  ASSERT_EQ(batch.num_rows(), 2);
  EXPECT_EQ(batch.column(0).Value<int8_t>(0), 3);
  EXPECT_TRUE(batch.column(0).IsNull(1));
  EXPECT_EQ(batch.column(1).Value<double>(0), 1.0);
  EXPECT_TRUE(std::isnan(batch.column(1).Value<double>(1)));
  EXPECT_EQ(batch.column(2).BinaryValue(0), "ab");
  EXPECT_TRUE(batch.column(2).IsNull(1));
  EXPECT_EQ(batch.column(3).Value<uint32_t>(0), 4294967295u);
  EXPECT_EQ(batch.column(3).Value<uint32_t>(1), 100u);
  ExpectError(R"({"u":4294967296})", schema, StatusCode::kOutOfRange,
              "row 0, field 'u': out of range for uint32 (got 4294967296)");
  ExpectError(R"({"f":1e400})", schema, StatusCode::kOutOfRange,
              "row 0, field 'f': out of range for float64 (got 1e400)");
  ExpectError(R"({"s":"\x"})", schema, StatusCode::kInvalidArgument,
              "row 0: malformed JSON near byte 5: Problem while parsing a string");
  ExpectError(R"({"id":-0x1})", schema, StatusCode::kInvalidArgument,
              "row 0: malformed JSON near byte 6: invalid number '-0x1'");
}

TEST(JsonReaderTest, KeysThatArePrefixesOrExtensionsOfNames) {
  SchemaPtr schema =
      MakeSchema({Field("id", DataType::Int8()), Field("identity", DataType::Int8())});
  RecordBatch batch = ReadOk(R"({"identity":2,"id":1})", schema);
  EXPECT_EQ(batch.column(0).Value<int8_t>(0), 1);
  EXPECT_EQ(batch.column(1).Value<int8_t>(0), 2);
  ExpectError(R"({"id":1,"i":2})", schema, StatusCode::kInvalidArgument,
              "row 0, field 'i': not in the schema");
  ExpectError(R"({"idx":1})", schema, StatusCode::kInvalidArgument,
              "row 0, field 'idx': not in the schema");
}

TEST(JsonReaderTest, DuplicateSchemaNamesFillTheFirstField) {
  SchemaPtr schema = MakeSchema({Field("a", DataType::Int8()), Field("a", DataType::Int16())});
  RecordBatch batch = ReadOk(R"({"a":1})", schema);
  EXPECT_EQ(batch.column(0).Value<int8_t>(0), 1);
  EXPECT_TRUE(batch.column(1).IsNull(0));
}

TEST(JsonReaderTest, LongNamesNearTheEndOfInput) {
  const std::string name(100, 'k');
  SchemaPtr schema = MakeSchema({Field(name, DataType::Int8()), Field("b", DataType::Int8())});
  RecordBatch batch = ReadOk(R"({"b":1,"k":2})", schema, [] {
    JsonReadOptions options;
    options.unknown_fields = UnknownFields::kIgnore;
    return options;
  }());
  EXPECT_TRUE(batch.column(0).IsNull(0));
  EXPECT_EQ(batch.column(1).Value<int8_t>(0), 1);
}

TEST(JsonReaderTest, ManyRowsWithMixedShapes) {
  SchemaPtr schema = MakeSchema({Field("n", DataType::Int64()), Field("s", DataType::Utf8())});
  std::string json = "[";
  for (int i = 0; i < 3000; ++i) {
    if (i > 0) json += ",";
    json += i % 3 == 0
                ? "{\"n\":" + std::to_string(i) + ",\"s\":\"" + std::string(i % 50, 'x') + "\"}"
            : i % 3 == 1 ? "{\"s\":\"y\",\"n\":" + std::to_string(-i) + "}"
                         : "{}";
  }
  json += "]";
  RecordBatch batch = ReadOk(json, schema);
  ASSERT_EQ(batch.num_rows(), 3000);
  EXPECT_EQ(batch.column(0).Value<int64_t>(2997), 2997);
  EXPECT_EQ(batch.column(1).BinaryValue(2997), std::string(2997 % 50, 'x'));
  EXPECT_EQ(batch.column(0).Value<int64_t>(2998), -2998);
  EXPECT_TRUE(batch.column(0).IsNull(2999));
  EXPECT_EQ(batch.column(0).null_count(), 1000);
}

// Several inputs, one batch: how coalesced one-row produces are read.
TEST(JsonBatchReaderTest, RowsOfEveryInputInOrderInOneBatch) {
  JsonBatchReader reader(FlightSchema());
  ASSERT_TRUE(reader.Append(kFlight1).ok());
  EXPECT_EQ(reader.num_rows(), 1);
  ASSERT_TRUE(reader.Append(std::string(kFlight2) + "\n" + std::string(kFlight1)).ok());
  EXPECT_EQ(reader.num_rows(), 3);
  ASSERT_TRUE(reader.Append("[" + std::string(kFlight2) + "]").ok());
  EXPECT_EQ(reader.num_rows(), 4);
  auto batch = reader.Finish();
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_EQ(batch->num_rows(), 4);
  EXPECT_EQ(batch->column(3).BinaryValue(0), "SAN");
  EXPECT_EQ(batch->column(3).BinaryValue(1), "LAX");
  EXPECT_EQ(batch->column(3).BinaryValue(2), "SAN");
  EXPECT_EQ(batch->column(1).Value<int32_t>(3), -5);
  EXPECT_TRUE(ValidateFull(*batch).ok());
}

TEST(JsonBatchReaderTest, ABadInputIsRefusedWithReadJsonsError) {
  JsonBatchReader reader(FlightSchema());
  ASSERT_TRUE(reader.Append(kFlight1).ok());
  Status s = reader.Append(R"({"date":"x","delay":"late","distance":1,"origin":"A","destination":"B"})");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  EXPECT_NE(s.message().find("field 'delay'"), std::string::npos) << s.message();
  JsonBatchReader other(FlightSchema());
  EXPECT_FALSE(other.Append("{").ok());
}

// Many small inputs of varying sizes, as a stream of one-row requests sends them: the thread's
// parser is reused (no reallocation per size) and every row comes back.
TEST(JsonBatchReaderTest, ManySmallInputsOfVaryingSize) {
  JsonBatchReader reader(FlightSchema());
  for (int i = 0; i < 1000; ++i) {
    const std::string row = R"({"date":")" + std::string(static_cast<size_t>(i % 37), 'd') +
                            R"(","delay":)" + std::to_string(i) +
                            R"(,"distance":1,"origin":"O","destination":"D"})";
    ASSERT_TRUE(reader.Append(row).ok()) << row;
    // ReadJson on the same thread in between shares the parser.
    if (i % 100 == 0) ExpectFlights(ReadOk(std::string(kFlight1) + "\n" + std::string(kFlight2), FlightSchema()));
  }
  auto batch = reader.Finish();
  ASSERT_TRUE(batch.ok());
  ASSERT_EQ(batch->num_rows(), 1000);
  for (int i = 0; i < 1000; i += 97) {
    EXPECT_EQ(batch->column(1).Value<int32_t>(i), i);
    EXPECT_EQ(batch->column(0).BinaryValue(i).size(), static_cast<size_t>(i % 37));
  }
}

}  // namespace
}  // namespace higgins::arrow::json
