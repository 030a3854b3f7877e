#include "output_format.h"

#include <algorithm>

#include "arrow/json/json_writer.h"
#include "time_text.h"

namespace higgins::cli {

TextTable::TextTable(std::vector<std::string> header) {
  rows_.push_back(std::move(header));
}

void TextTable::AddRow(std::vector<std::string> cells) {
  rows_.push_back(std::move(cells));
}

std::string TextTable::Render() const {
  const size_t columns = rows_[0].size();
  std::vector<size_t> widths(columns, 0);
  for (const auto& row : rows_) {
    for (size_t c = 0; c < columns; ++c) widths[c] = std::max(widths[c], DisplayWidth(row[c]));
  }
  std::string out;
  for (const auto& row : rows_) {
    std::string line;
    for (size_t c = 0; c < columns; ++c) {
      line += row[c];
      if (c + 1 < columns) line.append(widths[c] - DisplayWidth(row[c]) + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  }
  return out;
}

size_t DisplayWidth(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::string TableText(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  auto escape = [](std::string& out, unsigned code) {
    out += "\\u";
    out += kHex[(code >> 12) & 15];
    out += kHex[(code >> 8) & 15];
    out += kHex[(code >> 4) & 15];
    out += kHex[code & 15];
  };
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          escape(out, c);  // C0 controls and DEL
        } else if (c == 0xC2 && i + 1 < text.size() &&
                   static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                   static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
          escape(out, static_cast<unsigned char>(text[++i]));  // C1 controls U+0080..U+009F
        } else if (c == 0xE2 && i + 2 < text.size() && text[i + 1] == '\x80' &&
                   (text[i + 2] == '\xA8' || text[i + 2] == '\xA9')) {
          escape(out, text[i + 2] == '\xA8' ? 0x2028 : 0x2029);  // line/paragraph separators
          i += 2;
        } else {
          out += ch;
        }
    }
  }
  return out;
}

std::string JsonQuote(std::string_view text) {
  return "\"" + TableText(text) + "\"";
}

std::vector<std::string> RenderJsonRows(const arrow::RecordBatch& batch) {
  std::string text;
  arrow::json::WriteNdjson(batch, &text);
  std::vector<std::string> rows;
  rows.reserve(static_cast<size_t>(batch.num_rows()));
  size_t start = 0;
  while (start < text.size()) {  // strings are escaped, so '\n' only ends rows
    const size_t end = text.find('\n', start);
    rows.emplace_back(text, start, end - start);
    start = end + 1;
  }
  return rows;
}

// Each column is written on its own as a one-field batch whose field has an empty name, so every
// line is `{"":VALUE}` and the value is what WriteNdjson renders for it.
Result<std::vector<std::vector<std::string>>> RenderCells(const arrow::RecordBatch& batch) {
  constexpr std::string_view kPrefix = "{\"\":";
  std::vector<std::vector<std::string>> cells;
  for (int c = 0; c < batch.num_columns(); ++c) {
    const arrow::Field& field = batch.schema()->field(static_cast<size_t>(c));
    HIGGINS_ASSIGN_OR_RETURN(
        arrow::RecordBatch column,
        arrow::RecordBatch::Make(arrow::MakeSchema({arrow::Field("", field.type, field.nullable)}),
                                 batch.num_rows(), {batch.column(c)}));
    std::vector<std::string> values = RenderJsonRows(column);
    for (std::string& value : values) {
      value = value.substr(kPrefix.size(), value.size() - kPrefix.size() - 1);
      if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
    }
    cells.push_back(std::move(values));
  }
  return cells;
}

std::string RecordEnvelope(uint64_t offset, uint64_t timestamp_ms, std::string_view record_json) {
  std::string out = "{\"offset\":" + std::to_string(offset) + ",\"timestamp\":\"" +
                    FormatTimestampMs(timestamp_ms) + "\",\"record\":";
  out += record_json;
  out += '}';
  return out;
}

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): (key, value): the key, then its record
std::string WithDelivery(std::string_view partition_key, bool redelivered,
                         std::string_view object) {
  std::string out = "{\"partition\":" + JsonQuote(partition_key) +
                    ",\"redelivered\":" + (redelivered ? "true" : "false");
  if (object.size() > 2) out += ',';
  out += object.substr(1);
  return out;
}

namespace {

std::string Bound(const WindowBounds& bounds, uint64_t value, bool json) {
  if (!bounds.by_time) return std::to_string(value);
  return json ? "\"" + FormatTimestampMs(value) + "\"" : FormatTimestampMs(value);
}

}  // namespace

std::string WindowHeading(uint64_t window, const WindowBounds& bounds, int64_t members) {
  return "window " + std::to_string(window) + (bounds.closed ? " (closed): " : " (open): ") +
         (bounds.by_time ? "[" : "base offsets [") + Bound(bounds, bounds.start, false) + ", " +
         Bound(bounds, bounds.end, false) + "), " + std::to_string(members) +
         (members == 1 ? " record" : " records");
}

std::string WindowEnvelope(uint64_t window, const WindowBounds& bounds,
                           const std::vector<std::string>& envelopes) {
  std::string out = "{\"window\":" + std::to_string(window) +
                    ",\"closed\":" + (bounds.closed ? "true" : "false") +
                    ",\"type\":" + (bounds.by_time ? "\"time\"" : "\"count\"") +
                    ",\"start\":" + Bound(bounds, bounds.start, true) +
                    ",\"end\":" + Bound(bounds, bounds.end, true) + ",\"records\":[";
  for (size_t i = 0; i < envelopes.size(); ++i) {
    if (i > 0) out += ',';
    out += envelopes[i];
  }
  return out + "]}";
}

arrow::KeyValueMetadata WindowMetadata(uint64_t window, const WindowBounds& bounds) {
  return {{"higgins:window", std::to_string(window)},
          {"higgins:window_closed", bounds.closed ? "true" : "false"},
          {"higgins:window_type", bounds.by_time ? "time" : "count"},
          {"higgins:window_start", std::to_string(bounds.start)},
          {"higgins:window_end", std::to_string(bounds.end)}};
}

}  // namespace higgins::cli
