// Fuzzes JSON and CSV ingestion against a schema that has one field of every supported type.
// Every input must yield a valid record batch or an error Status; the batch must render back to
// JSON that reads again to an equal batch.
#include <cstddef>
#include <cstdint>
#include <string>

#include "arrow/json/csv_reader.h"
#include "arrow/json/json_reader.h"
#include "arrow/json/json_writer.h"
#include "arrow/validate.h"

namespace arrow = higgins::arrow;
namespace json = higgins::arrow::json;

namespace {

arrow::SchemaPtr FuzzSchema() {
  using arrow::DataType;
  using arrow::Field;
  using arrow::TimeUnit;
  static const arrow::SchemaPtr schema = arrow::MakeSchema({
      Field("id", DataType::Utf8(), false),
      Field("b", DataType::Bool()),
      Field("i8", DataType::Int8()),
      Field("u16", DataType::UInt16()),
      Field("i32", DataType::Int32()),
      Field("i64", DataType::Int64()),
      Field("u64", DataType::UInt64()),
      Field("f16", DataType::Float16()),
      Field("f32", DataType::Float32()),
      Field("f64", DataType::Float64()),
      Field("s", DataType::LargeUtf8()),
      Field("bin", DataType::Binary()),
      Field("fsb", DataType::FixedSizeBinary(4)),
      Field("d32", DataType::Date32()),
      Field("d64", DataType::Date64()),
      Field("ts", DataType::Timestamp(TimeUnit::kMicro, "UTC")),
      Field("t32", DataType::Time32(TimeUnit::kMilli)),
      Field("t64", DataType::Time64(TimeUnit::kNano)),
      Field("dur", DataType::Duration(TimeUnit::kSecond)),
      Field("dec", DataType::Decimal128(20, 4)),
      Field("n", DataType::Null()),
  });
  return schema;
}

void CheckRoundTrip(const arrow::RecordBatch& batch) {
  if (!arrow::ValidateFull(batch).ok()) __builtin_trap();
  std::string text;
  json::WriteNdjson(batch, &text);
  json::JsonReadOptions options;
  options.format = json::JsonFormat::kNdjson;
  auto again = json::ReadJson(text, batch.schema(), options);
  if (batch.num_rows() > 0 && (!again.ok() || !again->Equals(batch))) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  json::JsonReadOptions options;
  options.max_rows = 1000;
  if (auto r = json::ReadJson(text, FuzzSchema(), options); r.ok()) CheckRoundTrip(*r);
  json::CsvReadOptions csv;
  csv.max_rows = 1000;
  if (auto r = json::ReadCsv(text, FuzzSchema(), csv); r.ok()) CheckRoundTrip(*r);
  return 0;
}
