#include "tests/conformance/integration_json_column.h"

#include <charconv>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "higgins/arrow/float16.h"
#include "tests/support/int128_text.h"

namespace higgins::conformance {
namespace {

using arrow::ArrayBuilder;
using arrow::TypeId;
using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;

class ColumnParser {
 public:
  ColumnParser(const arrow::Field& field, int64_t count) : field_(field), count_(count) {}

  Status Malformed(std::string_view what, int64_t row = -1) const {
    std::string where = "column '" + field_.name + "'";
    if (row >= 0) where += " row " + std::to_string(row);
    return Status::Corruption(where + ": " + std::string(what));
  }

  // Integers arrive as JSON numbers or as decimal strings (64-bit types).
  template <typename T>
  Result<T> Integer(element e, int64_t row) const {
    if (e.type() == element_type::STRING) {
      std::string_view text = e.get_string().value_unsafe();
      T v{};
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || end != text.data() + text.size()) {
        return Malformed("'" + std::string(text) + "' is not a valid integer of its type", row);
      }
      return v;
    }
    if (e.type() == element_type::INT64) {
      const int64_t v = e.get_int64().value_unsafe();
      if constexpr (std::is_signed_v<T>) {
        if (v >= std::numeric_limits<T>::min() && v <= std::numeric_limits<T>::max()) {
          return static_cast<T>(v);
        }
      } else {
        if (v >= 0 && static_cast<uint64_t>(v) <= std::numeric_limits<T>::max()) {
          return static_cast<T>(v);
        }
      }
    } else if (e.type() == element_type::UINT64) {
      const uint64_t v = e.get_uint64().value_unsafe();
      if (v <= static_cast<uint64_t>(std::numeric_limits<T>::max())) return static_cast<T>(v);
    } else {
      return Malformed("expected an integer", row);
    }
    return Malformed("integer out of range", row);
  }

  Result<double> Number(element e, int64_t row) const {
    double v = 0;
    if (e.get(v) != simdjson::SUCCESS) return Malformed("expected a number", row);
    return v;
  }

  Result<__int128> Decimal(element e, int64_t row) const {
    std::string_view text;
    if (e.get(text) != simdjson::SUCCESS) return Malformed("expected a decimal string", row);
    std::optional<__int128> v = testing::ParseInt128(text);
    if (!v) return Malformed("'" + std::string(text) + "' is not a 128-bit integer", row);
    return *v;
  }

  Result<std::string> Bytes(element e, int64_t row) const {
    std::string_view text;
    if (e.get(text) != simdjson::SUCCESS) return Malformed("expected a string", row);
    if (field_.type.is_string()) return std::string(text);
    if (text.size() % 2 != 0) return Malformed("hex with an odd number of digits", row);
    std::string out(text.size() / 2, '\0');
    for (size_t i = 0; i < out.size(); ++i) {
      const int hi = HexDigit(text[2 * i]);
      const int lo = HexDigit(text[2 * i + 1]);
      if (hi < 0 || lo < 0) return Malformed("invalid hex digit", row);
      out[i] = static_cast<char>(hi * 16 + lo);
    }
    return out;
  }

  Status AppendValue(ArrayBuilder& b, element e, int64_t row) const {
    switch (field_.type.id()) {
      case TypeId::kBool: {
        bool v = false;
        if (e.get(v) != simdjson::SUCCESS) return Malformed("expected true or false", row);
        b.AppendBool(v);
        return Status::OK();
      }
      case TypeId::kInt8: return AppendInteger<int8_t>(b, e, row);
      case TypeId::kInt16: return AppendInteger<int16_t>(b, e, row);
      case TypeId::kInt32:
      case TypeId::kDate32:
      case TypeId::kTime32: return AppendInteger<int32_t>(b, e, row);
      case TypeId::kInt64:
      case TypeId::kDate64:
      case TypeId::kTimestamp:
      case TypeId::kTime64:
      case TypeId::kDuration: return AppendInteger<int64_t>(b, e, row);
      case TypeId::kUInt8: return AppendInteger<uint8_t>(b, e, row);
      case TypeId::kUInt16: return AppendInteger<uint16_t>(b, e, row);
      case TypeId::kUInt32: return AppendInteger<uint32_t>(b, e, row);
      case TypeId::kUInt64: return AppendInteger<uint64_t>(b, e, row);
      case TypeId::kFloat16: {
        HIGGINS_ASSIGN_OR_RETURN(double v, Number(e, row));
        b.AppendPrimitive<uint16_t>(arrow::FloatToHalf(static_cast<float>(v)));
        return Status::OK();
      }
      case TypeId::kFloat32: {
        HIGGINS_ASSIGN_OR_RETURN(double v, Number(e, row));
        b.AppendPrimitive<float>(static_cast<float>(v));
        return Status::OK();
      }
      case TypeId::kFloat64: {
        HIGGINS_ASSIGN_OR_RETURN(double v, Number(e, row));
        b.AppendPrimitive<double>(v);
        return Status::OK();
      }
      case TypeId::kDecimal128: {
        HIGGINS_ASSIGN_OR_RETURN(__int128 v, Decimal(e, row));
        b.AppendDecimal128(v);
        return Status::OK();
      }
      case TypeId::kUtf8:
      case TypeId::kLargeUtf8:
      case TypeId::kBinary:
      case TypeId::kLargeBinary:
      case TypeId::kFixedSizeBinary: {
        HIGGINS_ASSIGN_OR_RETURN(std::string bytes, Bytes(e, row));
        Status st = b.AppendBinary(bytes);
        return st.ok() ? st : Malformed(st.message(), row);
      }
      case TypeId::kNull: break;
    }
    return Malformed("internal: no value parser for " + field_.type.ToString(), row);
  }

  // OFFSET (numbers or strings) must grow by the byte length of each valid slot of `built`.
  Status CheckOffsets(array offsets, const arrow::Array& built) const {
    if (offsets.size() == 0 && count_ == 0) return Status::OK();
    if (offsets.size() != static_cast<size_t>(count_) + 1) {
      return Malformed("OFFSET has " + std::to_string(offsets.size()) + " entries, expected " +
                       std::to_string(count_ + 1));
    }
    std::vector<int64_t> values;
    for (element e : offsets) {
      const auto row = static_cast<int64_t>(values.size());
      HIGGINS_ASSIGN_OR_RETURN(int64_t v, Integer<int64_t>(e, row));
      values.push_back(v);
    }
    for (int64_t i = 0; i < count_; ++i) {
      const auto slot = static_cast<size_t>(i);
      if (built.IsValid(i) &&
          values[slot + 1] - values[slot] != static_cast<int64_t>(built.BinaryValue(i).size())) {
        return Malformed("OFFSET disagrees with the length of DATA", i);
      }
    }
    return Status::OK();
  }

 private:
  static int HexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  template <typename T>
  Status AppendInteger(ArrayBuilder& b, element e, int64_t row) const {
    HIGGINS_ASSIGN_OR_RETURN(T v, Integer<T>(e, row));
    b.AppendPrimitive<T>(v);
    return Status::OK();
  }

  const arrow::Field& field_;
  int64_t count_;
};

}  // namespace

Result<arrow::Array> ParseIntegrationColumn(const arrow::Field& field, simdjson::dom::object column,
                                            int64_t count) {
  ColumnParser p(field, count);
  std::string_view name;
  if (column["name"].get(name) != simdjson::SUCCESS || name != field.name) {
    return p.Malformed("column name does not match the schema field");
  }
  int64_t column_count = -1;
  if (column["count"].get(column_count) != simdjson::SUCCESS || column_count != count) {
    return p.Malformed("column count does not match the batch count");
  }
  if (field.type.id() == TypeId::kNull) return arrow::MakeNullArray(field.type, count);

  array validity;
  array data;
  if (column["VALIDITY"].get(validity) != simdjson::SUCCESS ||
      column["DATA"].get(data) != simdjson::SUCCESS) {
    return p.Malformed("column without VALIDITY or DATA");
  }
  if (validity.size() != static_cast<size_t>(count) || data.size() != static_cast<size_t>(count)) {
    return p.Malformed("VALIDITY or DATA length differs from count");
  }

  ArrayBuilder builder(field.type);
  builder.Reserve(count);
  int64_t row = 0;
  auto data_it = data.begin();
  for (element v : validity) {
    int64_t valid = 0;
    if (v.get(valid) != simdjson::SUCCESS || (valid != 0 && valid != 1)) {
      return p.Malformed("VALIDITY entries must be 0 or 1", row);
    }
    element value = *data_it;
    ++data_it;
    if (valid == 0) {
      builder.AppendNull();
    } else {
      HIGGINS_RETURN_IF_ERROR(p.AppendValue(builder, value, row));
    }
    ++row;
  }
  arrow::Array built = builder.Finish();
  if (field.type.is_var_binary()) {
    array offsets;
    if (column["OFFSET"].get(offsets) != simdjson::SUCCESS) {
      return p.Malformed("variable-length column without OFFSET");
    }
    HIGGINS_RETURN_IF_ERROR(p.CheckOffsets(offsets, built));
  }
  return built;
}

}  // namespace higgins::conformance
