#pragma once

// Text renderings shared by the broker commands: aligned tables for people, JSON for programs.
// Pure functions and value types; no I/O.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "higgins/arrow/record_batch.h"

namespace higgins::cli {

/// Columns aligned on the widest cell (counted in UTF-8 code points), two spaces apart, every
/// cell left-aligned, no trailing spaces. Cells must not contain line breaks (use TableText).
class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header);

  /// Appends a row; it must have as many cells as the header.
  void AddRow(std::vector<std::string> cells);

  /// The header line, then one line per row, each ending in '\n'.
  std::string Render() const;

 private:
  std::vector<std::vector<std::string>> rows_;  // rows_[0] is the header
};

/// The number of UTF-8 code points in `text` (bytes that are not continuation bytes).
size_t DisplayWidth(std::string_view text);

/// `text` as a quoted JSON string: `"` `\` and control characters escaped (as docs/json.md).
std::string JsonQuote(std::string_view text);

/// `text` escaped as a JSON string but without the quotes, so it is one line: the form of
/// strings in table cells.
std::string TableText(std::string_view text);

/// The table cells of every value of `batch`, cells[column][row]: the value's JSON rendering
/// (docs/json.md, "JSON output"), with the quotes of a JSON string removed; null is `null`.
/// Errors: as RecordBatch::Make (never for a valid batch).
Result<std::vector<std::vector<std::string>>> RenderCells(const arrow::RecordBatch& batch);

/// One JSON object per row of `batch`, without line ends, keys in schema order
/// (arrow::json::WriteNdjson).
std::vector<std::string> RenderJsonRows(const arrow::RecordBatch& batch);

/// The object query prints for one record:
/// `{"offset":N,"timestamp":"YYYY-MM-DDTHH:MM:SS.mmmZ","record":RECORD_JSON}`.
std::string RecordEnvelope(uint64_t offset, uint64_t timestamp_ms, std::string_view record_json);

}  // namespace higgins::cli
