#include "output_format.h"

#include <gtest/gtest.h>

#include "arrow/json/json_reader.h"

namespace higgins::cli {
namespace {

TEST(TextTable, AlignsColumnsOnTheWidestCell) {
  TextTable table({"name", "records"});
  table.AddRow({"amount", "3"});
  table.AddRow({"a", "12345"});
  EXPECT_EQ(table.Render(),
            "name    records\n"
            "amount  3\n"
            "a       12345\n");
}

TEST(TextTable, NoTrailingSpacesAfterShortLastCells) {
  TextTable table({"a", "b"});
  table.AddRow({"xxxx", ""});
  EXPECT_EQ(table.Render(), "a     b\nxxxx\n");
}

TEST(TextTable, WidthCountsCodePointsNotBytes) {
  TextTable table({"k", "v"});
  table.AddRow({"é", "1"});
  table.AddRow({"ab", "2"});
  EXPECT_EQ(table.Render(), "k   v\né   1\nab  2\n");
}

TEST(TextTable, HeaderOnly) {
  EXPECT_EQ(TextTable({"a", "bb"}).Render(), "a  bb\n");
}

TEST(OutputFormat, WithDeliveryComesFirst) {
  EXPECT_EQ(WithDelivery("k\"1", false, R"({"offset":3,"record":{}})"),
            R"({"partition":"k\"1","redelivered":false,"offset":3,"record":{}})");
  EXPECT_EQ(WithDelivery("k", true, "{}"), R"({"partition":"k","redelivered":true})");
}

TEST(OutputFormat, TableTextEscapesDelC1AndSeparators) {
  EXPECT_EQ(TableText("a\x7F"
                      "b\xC2\x85"
                      "c\xE2\x80\xA8"
                      "d\xE2\x80\xA9"
                      "e"),
            "a\\u007fb\\u0085c\\u2028d\\u2029e");
  EXPECT_EQ(TableText("\xC2\xA0\xE2\x80\xA6\xC3\xA9"), "\xC2\xA0\xE2\x80\xA6\xC3\xA9");
}

TEST(OutputFormat, TableTextEscapesLineBreaksAndQuotes) {
  EXPECT_EQ(TableText("a\"b\nc\\d\x01"), "a\\\"b\\nc\\\\d\\u0001");
  EXPECT_EQ(JsonQuote("x\ty"), "\"x\\ty\"");
}

arrow::RecordBatch Batch(std::string_view rows) {
  auto schema = arrow::MakeSchema(
      {arrow::Field("id", arrow::DataType::Utf8()), arrow::Field("data", arrow::DataType::Int32()),
       arrow::Field("price", arrow::DataType::Decimal128(10, 2)),
       arrow::Field("at", arrow::DataType::Timestamp(arrow::TimeUnit::kMilli, "UTC"))});
  auto batch = arrow::json::ReadJson(rows, schema);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

TEST(OutputFormat, CellsAreJsonRenderingsWithoutStringQuotes) {
  auto batch = Batch(R"({"id":"a \"q\"","data":1,"price":"12.3","at":0}
{"id":null,"data":null,"price":null,"at":null})");
  auto cells = RenderCells(batch);
  ASSERT_TRUE(cells.ok());
  ASSERT_EQ(cells->size(), 4u);
  EXPECT_EQ((*cells)[0], (std::vector<std::string>{"a \\\"q\\\"", "null"}));
  EXPECT_EQ((*cells)[1], (std::vector<std::string>{"1", "null"}));
  EXPECT_EQ((*cells)[2], (std::vector<std::string>{"12.30", "null"}));
  EXPECT_EQ((*cells)[3], (std::vector<std::string>{"1970-01-01T00:00:00.000Z", "null"}));
}

TEST(OutputFormat, JsonRowsAreTheWritersObjects) {
  auto batch = Batch(R"({"id":"a","data":1}
{"id":"b\nc","data":2})");
  EXPECT_EQ(RenderJsonRows(batch),
            (std::vector<std::string>{R"({"id":"a","data":1,"price":null,"at":null})",
                                      R"({"id":"b\nc","data":2,"price":null,"at":null})"}));
}

TEST(OutputFormat, RecordEnvelope) {
  EXPECT_EQ(RecordEnvelope(7, 1795953600250, R"({"id":"a"})"),
            R"({"offset":7,"timestamp":"2026-11-29T12:00:00.250Z","record":{"id":"a"}})");
}

TEST(OutputFormat, CountWindow) {
  const WindowBounds open{false, false, 5, 10, 5};
  EXPECT_EQ(WindowHeading(1, open, 4), "window 1 (open): base offsets [5, 10), 4 records");
  EXPECT_EQ(WindowHeading(2, open, 1), "window 2 (open): base offsets [5, 10), 1 record");
  EXPECT_EQ(WindowEnvelope(1, open, {R"({"offset":5})", R"({"offset":6})"}),
            R"({"window":1,"closed":false,"type":"count","start":5,"end":10,)"
            R"("records":[{"offset":5},{"offset":6}]})");
  EXPECT_EQ(WindowMetadata(1, open),
            (arrow::KeyValueMetadata{{"higgins:window", "1"},
                                     {"higgins:window_closed", "false"},
                                     {"higgins:window_type", "count"},
                                     {"higgins:window_start", "5"},
                                     {"higgins:window_end", "10"}}));
}

TEST(OutputFormat, TimeWindow) {
  const WindowBounds closed{true, true, 1795953600000, 1795953610000, 3};
  EXPECT_EQ(WindowHeading(3, closed, 0),
            "window 3 (closed): [2026-11-29T12:00:00.000Z, 2026-11-29T12:00:10.000Z), 0 records");
  EXPECT_EQ(WindowEnvelope(3, closed, {}),
            R"({"window":3,"closed":true,"type":"time","start":"2026-11-29T12:00:00.000Z",)"
            R"("end":"2026-11-29T12:00:10.000Z","records":[]})");
  EXPECT_EQ(WindowMetadata(3, closed)[3].second, "1795953600000");
}

}  // namespace
}  // namespace higgins::cli
