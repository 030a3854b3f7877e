#include "records_printer.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace higgins::cli {
namespace {

Records Rows(const std::string& key, uint64_t offset, std::initializer_list<int32_t> values) {
  auto schema = arrow::MakeSchema({arrow::Field("v", arrow::DataType::Int32(), false)});
  arrow::ArrayBuilder builder(arrow::DataType::Int32());
  for (int32_t v : values) builder.AppendPrimitive<int32_t>(v);
  Records records;
  records.stream = "s";
  records.partition_key = key;
  records.offset = offset;
  records.batch =
      *arrow::RecordBatch::Make(schema, static_cast<int64_t>(values.size()), {builder.Finish()});
  records.timestamps_ms.assign(values.size(), 0);
  return records;
}

// What `print` wrote to standard output.
template <typename F>
std::string Output(F&& print) {
  ::testing::internal::CaptureStdout();
  print();
  std::fflush(stdout);
  return ::testing::internal::GetCapturedStdout();
}

// Each flush aligns its rows with the header (written once), not with earlier flushes.
TEST(RecordsPrinter, StreamedTableWritesTheHeaderOnce) {
  auto printer = MakePrinter({.output = "table", .partition = true});
  const std::string out = Output([&] {
    ASSERT_TRUE(printer->Print(Rows("k1", 0, {1, 2})).ok());
    ASSERT_TRUE(printer->Flush().ok());
    ASSERT_TRUE(printer->Print(Rows("key2", 7, {300})).ok());
    ASSERT_TRUE(printer->Flush().ok());
    ASSERT_TRUE(printer->Print(Rows("a_longer_key", 8, {4})).ok());
    ASSERT_TRUE(printer->Finish().ok());
  });
  EXPECT_EQ(out,
            "partition  redelivered  offset  timestamp                 v\n"
            "k1         false        0       1970-01-01T00:00:00.000Z  1\n"
            "k1         false        1       1970-01-01T00:00:00.000Z  2\n"
            "key2       false        7       1970-01-01T00:00:00.000Z  300\n"
            "a_longer_key  false        8       1970-01-01T00:00:00.000Z  4\n");
}

TEST(RecordsPrinter, QueryTableAlignsEveryPrintUntilFinish) {
  auto printer = MakePrinter({.output = "table"});
  const std::string out = Output([&] {
    ASSERT_TRUE(printer->Print(Rows("k1", 9, {1})).ok());
    ASSERT_TRUE(printer->Print(Rows("k1", 10, {2})).ok());
    ASSERT_TRUE(printer->Finish().ok());
  });
  EXPECT_EQ(out,
            "offset  timestamp                 v\n"
            "9       1970-01-01T00:00:00.000Z  1\n"
            "10      1970-01-01T00:00:00.000Z  2\n");
}

TEST(RecordsPrinter, JsonNamesThePartitionFirst) {
  auto printer = MakePrinter({.output = "ndjson", .partition = true});
  const std::string out = Output([&] {
    ASSERT_TRUE(printer->Print(Rows("k1", 3, {5})).ok());
    ASSERT_TRUE(printer->Finish().ok());
  });
  EXPECT_EQ(out,
            "{\"partition\":\"k1\",\"redelivered\":false,\"offset\":3,\"timestamp\":\"1970-01-"
            "01T00:00:00.000Z\",\"record\":{\"v\":5}}\n");
}

Records Redelivered(Records records) {
  records.redelivered = true;
  return records;
}

TEST(RecordsPrinter, TableMarksRedeliveredRows) {
  auto printer = MakePrinter({.output = "table", .partition = true});
  const std::string out = Output([&] {
    ASSERT_TRUE(printer->Print(Redelivered(Rows("a", 0, {1, 2}))).ok());
    ASSERT_TRUE(printer->Print(Rows("a", 2, {3})).ok());
    ASSERT_TRUE(printer->Finish().ok());
  });
  EXPECT_EQ(out,
            "partition  redelivered  offset  timestamp                 v\n"
            "a          true         0       1970-01-01T00:00:00.000Z  1\n"
            "a          true         1       1970-01-01T00:00:00.000Z  2\n"
            "a          false        2       1970-01-01T00:00:00.000Z  3\n");
}

TEST(RecordsPrinter, JsonArrayMarksRedeliveredRecords) {
  auto printer = MakePrinter({.output = "json", .partition = true});
  const std::string out = Output([&] {
    ASSERT_TRUE(printer->Print(Redelivered(Rows("a", 4, {1}))).ok());
    ASSERT_TRUE(printer->Finish().ok());
  });
  EXPECT_EQ(out,
            "[\n{\"partition\":\"a\",\"redelivered\":true,\"offset\":4,\"timestamp\":\"1970-01-"
            "01T00:00:00.000Z\",\"record\":{\"v\":1}}\n]\n");
}

// Arrow IPC holds the records alone: a redelivery is noted on standard error.
TEST(RecordsPrinter, ArrowNotesRedeliveriesOnStandardError) {
  auto printer = MakePrinter({.output = "arrow", .partition = true});
  ::testing::internal::CaptureStderr();
  Output([&] {
    ASSERT_TRUE(printer->Print(Redelivered(Rows("a", 4, {1, 2}))).ok());
    ASSERT_TRUE(printer->Print(Rows("a", 6, {3})).ok());
    ASSERT_TRUE(printer->Finish().ok());
  });
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "redelivered: partition 'a', offsets 4 to 5\n");
}

}  // namespace
}  // namespace higgins::cli
