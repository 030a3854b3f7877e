#include "tests/support/canonical_value.h"

#include <cmath>
#include <string>

#include "higgins/arrow/decimal.h"
#include "higgins/arrow/float16.h"
#include "tests/support/js_text.h"

namespace higgins::testing {
namespace {

using arrow::Array;
using arrow::DataType;
using arrow::TypeId;

std::string Quoted(const std::string& s) {
  return "\"" + s + "\"";
}

std::string FloatText(double v) {
  if (std::isnan(v)) return "\"NaN\"";
  if (std::isinf(v)) return v < 0 ? "\"-Infinity\"" : "\"Infinity\"";
  if (v == 0 && std::signbit(v)) return "\"-0\"";
  return JsNumberToString(v);
}

std::string Hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2 + 2);
  out += '"';
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  out += '"';
  return out;
}

}  // namespace

std::string CanonicalValue(const Array& array, int64_t i) {
  if (array.type().id() == TypeId::kNull || array.IsNull(i)) return "null";
  switch (array.type().id()) {
    case TypeId::kNull: return "null";
    case TypeId::kBool: return array.BoolValue(i) ? "true" : "false";
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: return std::to_string(array.IntegerValue(i));
    case TypeId::kUInt64: return Quoted(std::to_string(array.Value<uint64_t>(i)));
    case TypeId::kInt64:
    case TypeId::kDate64:
    case TypeId::kTimestamp:
    case TypeId::kTime64:
    case TypeId::kDuration: return Quoted(std::to_string(array.Value<int64_t>(i)));
    case TypeId::kFloat16: return FloatText(arrow::HalfToFloat(array.Value<uint16_t>(i)));
    case TypeId::kFloat32: return FloatText(array.Value<float>(i));
    case TypeId::kFloat64: return FloatText(array.Value<double>(i));
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8: return JsonQuote(array.BinaryValue(i));
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
    case TypeId::kFixedSizeBinary: return Hex(array.BinaryValue(i));
    case TypeId::kDecimal128: return Quoted(arrow::Int128ToString(array.Decimal128Value(i)));
  }
  return "null";
}

std::string CanonicalSchemaLine(const arrow::Schema& schema) {
  std::string out = "{\"schema\":[";
  for (size_t i = 0; i < schema.num_fields(); ++i) {
    const arrow::Field& f = schema.field(i);
    if (i > 0) out += ',';
    out += "{\"name\":" + JsonQuote(f.name) + ",\"type\":" + JsonQuote(CanonicalTypeName(f.type)) +
           ",\"nullable\":" + (f.nullable ? "true" : "false") + "}";
  }
  return out + "]}";
}

std::string CanonicalBatchLine(int64_t index, int64_t rows) {
  return "{\"batch\":" + std::to_string(index) + ",\"rows\":" + std::to_string(rows) + "}";
}

std::string CanonicalRowLine(const arrow::RecordBatch& batch, int64_t row) {
  std::string out = "{";
  for (int c = 0; c < batch.num_columns(); ++c) {
    if (c > 0) out += ',';
    out += JsonQuote(batch.schema()->field(static_cast<size_t>(c)).name);
    out += ':';
    out += CanonicalValue(batch.column(c), row);
  }
  return out + "}";
}

std::vector<std::string> CanonicalLines(const arrow::Schema& schema,
                                        const std::vector<arrow::RecordBatch>& batches) {
  std::vector<std::string> lines{CanonicalSchemaLine(schema)};
  for (size_t b = 0; b < batches.size(); ++b) {
    lines.push_back(CanonicalBatchLine(static_cast<int64_t>(b), batches[b].num_rows()));
    for (int64_t r = 0; r < batches[b].num_rows(); ++r) {
      lines.push_back(CanonicalRowLine(batches[b], r));
    }
  }
  return lines;
}

}  // namespace higgins::testing
