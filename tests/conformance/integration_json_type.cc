#include "tests/conformance/integration_json_type.h"

#include <string>

namespace higgins::conformance {
namespace {

using arrow::DataType;
using arrow::TimeUnit;
using simdjson::dom::object;

struct TypeContext {
  object type;
  std::string_view field;

  Status Malformed(std::string_view what) const {
    return Status::Corruption("field '" + std::string(field) + "': " + std::string(what));
  }
  Status Unsupported(std::string_view type_name) const {
    return Status::NotSupported("field '" + std::string(field) + "': type " +
                                std::string(type_name) + " is not supported");
  }
  Result<int64_t> Int(const char* key) const {
    int64_t v = 0;
    if (type[key].get(v) != simdjson::SUCCESS) {
      return Malformed(std::string("type has no integer '") + key + "'");
    }
    return v;
  }
  Result<std::string_view> Text(const char* key) const {
    std::string_view v;
    if (type[key].get(v) != simdjson::SUCCESS) {
      return Malformed(std::string("type has no string '") + key + "'");
    }
    return v;
  }
  Result<TimeUnit> Unit() const {
    HIGGINS_ASSIGN_OR_RETURN(std::string_view unit, Text("unit"));
    if (unit == "SECOND") return TimeUnit::kSecond;
    if (unit == "MILLISECOND") return TimeUnit::kMilli;
    if (unit == "MICROSECOND") return TimeUnit::kMicro;
    if (unit == "NANOSECOND") return TimeUnit::kNano;
    return Malformed("unknown time unit '" + std::string(unit) + "'");
  }
};

Result<DataType> ParseInt(const TypeContext& c) {
  HIGGINS_ASSIGN_OR_RETURN(int64_t bits, c.Int("bitWidth"));
  bool is_signed = false;
  if (c.type["isSigned"].get(is_signed) != simdjson::SUCCESS) {
    return c.Malformed("int type without 'isSigned'");
  }
  switch (bits) {
    case 8: return is_signed ? DataType::Int8() : DataType::UInt8();
    case 16: return is_signed ? DataType::Int16() : DataType::UInt16();
    case 32: return is_signed ? DataType::Int32() : DataType::UInt32();
    case 64: return is_signed ? DataType::Int64() : DataType::UInt64();
    default: return c.Malformed("int bitWidth " + std::to_string(bits));
  }
}

Result<DataType> ParseFloatingPoint(const TypeContext& c) {
  HIGGINS_ASSIGN_OR_RETURN(std::string_view precision, c.Text("precision"));
  if (precision == "HALF") return DataType::Float16();
  if (precision == "SINGLE") return DataType::Float32();
  if (precision == "DOUBLE") return DataType::Float64();
  return c.Malformed("unknown floating point precision '" + std::string(precision) + "'");
}

Result<DataType> ParseDecimal(const TypeContext& c) {
  int64_t bits = 128;
  if (c.type["bitWidth"].error() != simdjson::NO_SUCH_FIELD) {
    HIGGINS_ASSIGN_OR_RETURN(bits, c.Int("bitWidth"));
  }
  if (bits != 128) return c.Unsupported("decimal" + std::to_string(bits));
  HIGGINS_ASSIGN_OR_RETURN(int64_t precision, c.Int("precision"));
  HIGGINS_ASSIGN_OR_RETURN(int64_t scale, c.Int("scale"));
  DataType t = DataType::Decimal128(static_cast<int32_t>(precision), static_cast<int32_t>(scale));
  if (!t.Validate().ok()) return c.Malformed("invalid " + t.ToString());
  return t;
}

Result<DataType> ParseTime(const TypeContext& c) {
  HIGGINS_ASSIGN_OR_RETURN(TimeUnit unit, c.Unit());
  HIGGINS_ASSIGN_OR_RETURN(int64_t bits, c.Int("bitWidth"));
  const bool coarse = unit == TimeUnit::kSecond || unit == TimeUnit::kMilli;
  if (bits == 32 && coarse) return DataType::Time32(unit);
  if (bits == 64 && !coarse) return DataType::Time64(unit);
  return c.Malformed("time bitWidth " + std::to_string(bits) + " does not fit its unit");
}

Result<DataType> ParseTimestamp(const TypeContext& c) {
  HIGGINS_ASSIGN_OR_RETURN(TimeUnit unit, c.Unit());
  std::string_view tz;
  if (c.type["timezone"].error() != simdjson::NO_SUCH_FIELD) {
    HIGGINS_ASSIGN_OR_RETURN(tz, c.Text("timezone"));
  }
  return DataType::Timestamp(unit, std::string(tz));
}

// Arrow C++ spellings of the integration JSON names of types Higgins does not implement.
std::string_view UnsupportedTypeName(std::string_view json_name) {
  if (json_name == "largelist") return "large_list";
  if (json_name == "fixedsizelist") return "fixed_size_list";
  if (json_name == "listview") return "list_view";
  if (json_name == "largelistview") return "large_list_view";
  if (json_name == "utf8view") return "string_view";
  if (json_name == "binaryview") return "binary_view";
  if (json_name == "runendencoded") return "run_end_encoded";
  return json_name;
}

}  // namespace

Result<DataType> ParseIntegrationType(object type, std::string_view field_name) {
  const TypeContext c{type, field_name};
  HIGGINS_ASSIGN_OR_RETURN(std::string_view name, c.Text("name"));
  if (name == "null") return DataType::Null();
  if (name == "bool") return DataType::Bool();
  if (name == "int") return ParseInt(c);
  if (name == "floatingpoint") return ParseFloatingPoint(c);
  if (name == "utf8") return DataType::Utf8();
  if (name == "largeutf8") return DataType::LargeUtf8();
  if (name == "binary") return DataType::Binary();
  if (name == "largebinary") return DataType::LargeBinary();
  if (name == "fixedsizebinary") {
    HIGGINS_ASSIGN_OR_RETURN(int64_t width, c.Int("byteWidth"));
    if (width < 0 || width > INT32_MAX) return c.Malformed("invalid byteWidth");
    return DataType::FixedSizeBinary(static_cast<int32_t>(width));
  }
  if (name == "decimal") return ParseDecimal(c);
  if (name == "date") {
    HIGGINS_ASSIGN_OR_RETURN(std::string_view unit, c.Text("unit"));
    if (unit == "DAY") return DataType::Date32();
    if (unit == "MILLISECOND") return DataType::Date64();
    return c.Malformed("unknown date unit '" + std::string(unit) + "'");
  }
  if (name == "time") return ParseTime(c);
  if (name == "timestamp") return ParseTimestamp(c);
  if (name == "duration") {
    HIGGINS_ASSIGN_OR_RETURN(TimeUnit unit, c.Unit());
    return DataType::Duration(unit);
  }
  return c.Unsupported(UnsupportedTypeName(name));
}

}  // namespace higgins::conformance
