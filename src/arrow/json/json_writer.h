#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "higgins/arrow/record_batch.h"

namespace higgins::arrow::json {

/// Appends `text` as a JSON string (RFC 8259): quoted, with '"', '\\' and control characters
/// escaped. Bytes of 0x80 and above pass through unchanged, so `text` must be valid UTF-8 for
/// the result to be valid JSON.
void AppendJsonString(std::string_view text, std::string* out);

/// Appends one JSON object per row of `batch` to `out`, each followed by '\n' (NDJSON). Keys in
/// schema order. Value rendering (docs/json.md): integers and floats as JSON numbers (NaN and
/// infinities as the strings "NaN", "Infinity", "-Infinity"), decimals as exact strings ("12.30"),
/// date32 as "YYYY-MM-DD", date64 and timestamps as ISO 8601 / RFC 3339 strings, time32/64 as
/// "HH:MM:SS[.fraction]", durations as integers, binary as base64, null as null. Everything
/// written is accepted back by ReadJson with the same schema.
void WriteNdjson(const RecordBatch& batch, std::string* out);

/// Renders rows of one batch as JSON objects (as WriteNdjson does), one at a time: for callers
/// that frame each row on its own (Kafka record values). Keeps a reference to `batch`.
class JsonRowWriter {
 public:
  explicit JsonRowWriter(const RecordBatch& batch);
  /// Appends row `row` (0 <= row < batch.num_rows()) as one JSON object, without a newline.
  void AppendRow(int64_t row, std::string* out);

 private:
  const RecordBatch& batch_;
  std::vector<std::string> keys_;  // `{"name":` for the first column, `,"name":` after
  std::string scratch_;
};

/// The rows of `batch` as one JSON array.
std::string WriteJsonArray(const RecordBatch& batch);

}  // namespace higgins::arrow::json
