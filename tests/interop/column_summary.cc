#include "tests/interop/column_summary.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "higgins/arrow/float16.h"
#include "tests/support/canonical_type.h"
#include "tests/support/js_text.h"

namespace higgins::interop {
namespace {

using arrow::Array;
using arrow::TypeId;

std::string Int128Text(__int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  auto magnitude = negative ? static_cast<unsigned __int128>(0) - static_cast<unsigned __int128>(v)
                            : static_cast<unsigned __int128>(v);
  std::string digits;
  while (magnitude != 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  return negative ? "-" + digits : digits;
}

std::string FloatJson(double v) {
  if (std::isnan(v)) return "\"NaN\"";
  if (std::isinf(v)) return v < 0 ? "\"-Infinity\"" : "\"Infinity\"";
  if (v == 0 && std::signbit(v)) return "\"-0\"";
  return testing::JsNumberToString(v);
}

double FloatAt(const Array& a, int64_t i) {
  switch (a.type().id()) {
    case TypeId::kFloat16: return arrow::HalfToFloat(a.Value<uint16_t>(i));
    case TypeId::kFloat32: return a.Value<float>(i);
    default: return a.Value<double>(i);
  }
}

// Running aggregate of one column across batches.
struct Aggregate {
  int64_t nulls = 0;
  unsigned __int128 int_sum = 0;  // wraps modulo 2^128
  double float_sum = 0;
  int64_t true_count = 0;
  int64_t bytes = 0;
  uint64_t fnv = 14695981039346656037ull;

  void Hash(std::string_view value) {
    for (char c : value) fnv = (fnv ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    fnv = (fnv ^ 0xffu) * 1099511628211ull;
  }

  void Add(const Array& a, int64_t i) {
    const arrow::DataType& t = a.type();
    if (t.id() == TypeId::kNull || a.IsNull(i)) {
      ++nulls;
    } else if (t.id() == TypeId::kBool) {
      true_count += a.BoolValue(i) ? 1 : 0;
    } else if (t.is_floating()) {
      float_sum += FloatAt(a, i);
    } else if (t.id() == TypeId::kUInt64) {
      int_sum += a.Value<uint64_t>(i);
    } else if (t.id() == TypeId::kDecimal128) {
      int_sum += static_cast<unsigned __int128>(a.Decimal128Value(i));
    } else if (t.is_integer() || t.is_temporal()) {
      int_sum += static_cast<unsigned __int128>(static_cast<__int128>(a.IntegerValue(i)));
    } else {
      const std::string_view v = a.BinaryValue(i);
      bytes += static_cast<int64_t>(v.size());
      Hash(v);
    }
  }

  std::string Text(const arrow::DataType& t) const {
    if (t.id() == TypeId::kNull) return "";
    if (t.id() == TypeId::kBool) return ",\"true\":" + std::to_string(true_count);
    if (t.is_floating()) return ",\"sum\":" + FloatJson(float_sum);
    if (t.is_integer() || t.is_temporal() || t.id() == TypeId::kDecimal128) {
      return ",\"sum\":\"" + Int128Text(static_cast<__int128>(int_sum)) + "\"";
    }
    char hex[17];
    std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(fnv));
    return ",\"bytes\":" + std::to_string(bytes) + ",\"fnv1a64\":\"" + hex + "\"";
  }
};

}  // namespace

std::vector<std::string> SummarizeTable(const arrow::Schema& schema,
                                        const std::vector<arrow::RecordBatch>& batches) {
  int64_t rows = 0;
  std::vector<Aggregate> aggregates(schema.num_fields());
  for (const arrow::RecordBatch& batch : batches) {
    rows += batch.num_rows();
    for (int c = 0; c < batch.num_columns(); ++c) {
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        aggregates[static_cast<size_t>(c)].Add(batch.column(c), i);
      }
    }
  }
  std::vector<std::string> lines{"{\"rows\":" + std::to_string(rows) +
                                 ",\"batches\":" + std::to_string(batches.size()) + "}"};
  for (size_t c = 0; c < schema.num_fields(); ++c) {
    const arrow::Field& f = schema.field(c);
    lines.push_back("{\"column\":" + testing::JsonQuote(f.name) +
                    ",\"type\":" + testing::JsonQuote(testing::CanonicalTypeName(f.type)) +
                    ",\"nulls\":" + std::to_string(aggregates[c].nulls) +
                    aggregates[c].Text(f.type) + "}");
  }
  return lines;
}

}  // namespace higgins::interop
