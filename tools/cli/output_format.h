#pragma once

// Text renderings shared by the broker commands: aligned tables for people, JSON for programs.
// Pure functions and value types; no I/O.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "higgins/arrow/record_batch.h"
#include "higgins/client_types.h"

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

/// `object` (a JSON object's text, `{...}`) with `"partition":KEY,"redelivered":B` as its first
/// members: what subscribe prints, since its records come from every partition of a stream and
/// may be delivered again.
std::string WithDelivery(std::string_view partition_key, bool redelivered, std::string_view object);

/// The line query prints above a window's table:
/// `window 1 (open): base offsets [5, 10), 4 records` for a count window, or
/// `window 3 (closed): [2026-11-29T12:00:00.000Z, 2026-11-29T12:00:10.000Z), 2 records` for a
/// time window.
std::string WindowHeading(uint64_t window, const WindowBounds& bounds, int64_t members);

/// The object query prints for one window, on one line:
/// `{"window":N,"closed":B,"type":"count","start":S,"end":E,"records":[ENVELOPES]}`, where for a
/// time window `type` is "time" and `start` and `end` are times as in RecordEnvelope.
/// `envelopes` are the members' RecordEnvelope objects.
std::string WindowEnvelope(uint64_t window, const WindowBounds& bounds,
                           const std::vector<std::string>& envelopes);

/// Schema metadata describing a window, for Arrow IPC output: `higgins:window` (its number),
/// `higgins:window_closed` ("true"/"false"), `higgins:window_type` ("count"/"time"),
/// `higgins:window_start`, `higgins:window_end` (base offsets, or ms since the Unix epoch), in
/// that order.
arrow::KeyValueMetadata WindowMetadata(uint64_t window, const WindowBounds& bounds);

}  // namespace higgins::cli
