#include "arrow/json/json_writer.h"

#include <charconv>
#include <cmath>
#include <vector>

#include "arrow/json/base64.h"
#include "arrow/json/temporal.h"
#include "higgins/arrow/decimal.h"
#include "higgins/arrow/float16.h"

namespace higgins::arrow::json {
namespace {

constexpr int64_t kMillisPerDay = kSecondsPerDay * 1000;

template <typename T>
void AppendInteger(T value, std::string* out) {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof(digits), value);
  out->append(digits, result.ptr);
}

/// NaN and infinities have no JSON number form: they are written as strings.
template <typename T>
bool AppendNonFinite(T value, std::string* out) {
  if (std::isnan(value)) {
    out->append("\"NaN\"");
  } else if (std::isinf(value)) {
    out->append(value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
  } else {
    return false;
  }
  return true;
}

template <typename T>
void AppendFloat(T value, std::string* out) {
  if (AppendNonFinite(value, out)) return;
  char digits[40];
  const auto result = std::to_chars(digits, digits + sizeof(digits), value);
  out->append(digits, result.ptr);
}

/// The value the bits hold, which every half float is exactly as a double: its shortest
/// round-trip digits as a double (65504, not the "6.55e+04" that also reads back as 65504), as
/// readers of Arrow data print it. ReadJson rounds that text back to the same bits
/// (JsonWriterTest.EveryHalfFloatRoundTrips checks every half).
void AppendHalf(uint16_t bits, std::string* out) {
  AppendFloat(static_cast<double>(HalfToFloat(bits)), out);
}

/// Appends a quoted text form, or the integer when the value has no such form.
template <typename Format>
void AppendTemporal(int64_t value, std::string* out, Format format) {
  const size_t mark = out->size();
  out->push_back('"');
  if (format(out)) {
    out->push_back('"');
  } else {
    out->resize(mark);
    AppendInteger(value, out);
  }
}

void AppendValue(const Array& column, int64_t i, std::string* scratch, std::string* out) {
  const DataType& type = column.type();
  switch (type.id()) {
    case TypeId::kNull: out->append("null"); return;
    case TypeId::kBool: out->append(column.BoolValue(i) ? "true" : "false"); return;
    case TypeId::kInt8: AppendInteger(column.Value<int8_t>(i), out); return;
    case TypeId::kInt16: AppendInteger(column.Value<int16_t>(i), out); return;
    case TypeId::kInt32: AppendInteger(column.Value<int32_t>(i), out); return;
    case TypeId::kInt64: AppendInteger(column.Value<int64_t>(i), out); return;
    case TypeId::kUInt8: AppendInteger(column.Value<uint8_t>(i), out); return;
    case TypeId::kUInt16: AppendInteger(column.Value<uint16_t>(i), out); return;
    case TypeId::kUInt32: AppendInteger(column.Value<uint32_t>(i), out); return;
    case TypeId::kUInt64: AppendInteger(column.Value<uint64_t>(i), out); return;
    case TypeId::kDuration: AppendInteger(column.Value<int64_t>(i), out); return;
    case TypeId::kFloat16: AppendHalf(column.Value<uint16_t>(i), out); return;
    case TypeId::kFloat32: AppendFloat(column.Value<float>(i), out); return;
    case TypeId::kFloat64: AppendFloat(column.Value<double>(i), out); return;
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8: AppendJsonString(column.BinaryValue(i), out); return;
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
    case TypeId::kFixedSizeBinary:
      scratch->clear();
      Base64Encode(column.BinaryValue(i), scratch);
      out->push_back('"');
      out->append(*scratch);
      out->push_back('"');
      return;
    case TypeId::kDecimal128:
      out->push_back('"');
      out->append(FormatDecimal(column.Decimal128Value(i), type.scale()));
      out->push_back('"');
      return;
    case TypeId::kDate32: {
      const int64_t days = column.Value<int32_t>(i);
      AppendTemporal(days, out, [&](std::string* s) { return FormatDate(days, s); });
      return;
    }
    case TypeId::kDate64: {
      const int64_t ms = column.Value<int64_t>(i);
      AppendTemporal(ms, out, [&](std::string* s) {
        return ms % kMillisPerDay == 0 ? FormatDate(ms / kMillisPerDay, s)
                                       : FormatTimestamp(ms, TimeUnit::kMilli, s);
      });
      return;
    }
    case TypeId::kTimestamp: {
      const int64_t v = column.Value<int64_t>(i);
      AppendTemporal(v, out, [&](std::string* s) { return FormatTimestamp(v, type.unit(), s); });
      return;
    }
    case TypeId::kTime32:
    case TypeId::kTime64: {
      const int64_t v =
          type.id() == TypeId::kTime32 ? column.Value<int32_t>(i) : column.Value<int64_t>(i);
      AppendTemporal(v, out, [&](std::string* s) { return FormatTimeOfDay(v, type.unit(), s); });
      return;
    }
  }
}

}  // namespace

void AppendJsonString(std::string_view text, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t run = 0;  // start of the pending run of bytes that need no escaping
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(text.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      default:
        out->append("\\u00");
        out->push_back(kHex[c >> 4]);
        out->push_back(kHex[c & 15]);
    }
  }
  out->append(text.data() + run, text.size() - run);
  out->push_back('"');
}


JsonRowWriter::JsonRowWriter(const RecordBatch& batch) : batch_(batch) {
  // The keys ("name": with their separators) are escaped once.
  for (int c = 0; c < batch.num_columns(); ++c) {
    std::string key = c == 0 ? "{" : ",";
    AppendJsonString(batch.schema()->field(static_cast<size_t>(c)).name, &key);
    key.push_back(':');
    keys_.push_back(std::move(key));
  }
}

void JsonRowWriter::AppendRow(int64_t row, std::string* out) {
  if (keys_.empty()) out->push_back('{');
  for (int c = 0; c < batch_.num_columns(); ++c) {
    out->append(keys_[static_cast<size_t>(c)]);
    const Array& column = batch_.column(c);
    if (column.IsNull(row)) {
      out->append("null");
    } else {
      AppendValue(column, row, &scratch_, out);
    }
  }
  out->push_back('}');
}

void WriteNdjson(const RecordBatch& batch, std::string* out) {
  JsonRowWriter writer(batch);
  for (int64_t row = 0; row < batch.num_rows(); ++row) {
    writer.AppendRow(row, out);
    out->push_back('\n');
  }
}

std::string WriteJsonArray(const RecordBatch& batch) {
  JsonRowWriter writer(batch);
  std::string out = "[";
  for (int64_t row = 0; row < batch.num_rows(); ++row) {
    if (row > 0) out.push_back(',');
    writer.AppendRow(row, &out);
  }
  out.push_back(']');
  return out;
}

}  // namespace higgins::arrow::json
