#include "tests/support/canonical_type.h"

#include <charconv>
#include <string>

namespace higgins::testing {
namespace {

using arrow::DataType;
using arrow::TimeUnit;
using arrow::TypeId;

struct SimpleTag {
  std::string_view tag;
  DataType (*make)();
};

constexpr SimpleTag kSimpleTags[] = {
    {"null", DataType::Null},
    {"bool", DataType::Bool},
    {"int8", DataType::Int8},
    {"int16", DataType::Int16},
    {"int32", DataType::Int32},
    {"int64", DataType::Int64},
    {"uint8", DataType::UInt8},
    {"uint16", DataType::UInt16},
    {"uint32", DataType::UInt32},
    {"uint64", DataType::UInt64},
    {"float16", DataType::Float16},
    {"float32", DataType::Float32},
    {"float64", DataType::Float64},
    {"utf8", DataType::Utf8},
    {"large_utf8", DataType::LargeUtf8},
    {"binary", DataType::Binary},
    {"large_binary", DataType::LargeBinary},
    {"date32", DataType::Date32},
    {"date64", DataType::Date64},
};

bool ParseUnit(std::string_view text, TimeUnit* unit) {
  for (TimeUnit u : {TimeUnit::kSecond, TimeUnit::kMilli, TimeUnit::kMicro, TimeUnit::kNano}) {
    if (arrow::TimeUnitName(u) == text) {
      *unit = u;
      return true;
    }
  }
  return false;
}

bool ParseInt(std::string_view text, int32_t* out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::string CanonicalTypeName(const DataType& type) {
  for (const SimpleTag& s : kSimpleTags) {
    if (s.make() == type) return std::string(s.tag);
  }
  const std::string unit(arrow::TimeUnitName(type.unit()));
  switch (type.id()) {
    case TypeId::kFixedSizeBinary:
      return "fixed_size_binary(" + std::to_string(type.byte_width()) + ")";
    case TypeId::kTimestamp:
      return type.timezone().empty() ? "timestamp(" + unit + ")"
                                     : "timestamp(" + unit + "," + type.timezone() + ")";
    case TypeId::kTime32: return "time32(" + unit + ")";
    case TypeId::kTime64: return "time64(" + unit + ")";
    case TypeId::kDuration: return "duration(" + unit + ")";
    case TypeId::kDecimal128:
      return "decimal128(" + std::to_string(type.precision()) + "," + std::to_string(type.scale()) +
             ")";
    default: return "unknown";
  }
}

Result<DataType> ParseCanonicalTypeName(std::string_view tag) {
  for (const SimpleTag& s : kSimpleTags) {
    if (s.tag == tag) return s.make();
  }
  const auto bad = [&] {
    return Status::InvalidArgument("bad type tag '" + std::string(tag) + "'");
  };
  const size_t open = tag.find('(');
  if (open == std::string_view::npos || tag.back() != ')') return bad();
  const std::string_view base = tag.substr(0, open);
  const std::string_view args = tag.substr(open + 1, tag.size() - open - 2);
  const size_t comma = args.find(',');
  const std::string_view first = args.substr(0, comma);
  const std::string_view rest = comma == std::string_view::npos ? "" : args.substr(comma + 1);
  int32_t a = 0;
  int32_t b = 0;
  TimeUnit unit{};
  if (base == "fixed_size_binary" && comma == std::string_view::npos && ParseInt(first, &a)) {
    return DataType::FixedSizeBinary(a);
  }
  if (base == "decimal128" && ParseInt(first, &a) && ParseInt(rest, &b)) {
    return DataType::Decimal128(a, b);
  }
  if (!ParseUnit(first, &unit)) return bad();
  if (base == "timestamp") return DataType::Timestamp(unit, std::string(rest));
  if (comma != std::string_view::npos) return bad();
  if (base == "time32" && (unit == TimeUnit::kSecond || unit == TimeUnit::kMilli)) {
    return DataType::Time32(unit);
  }
  if (base == "time64" && (unit == TimeUnit::kMicro || unit == TimeUnit::kNano)) {
    return DataType::Time64(unit);
  }
  if (base == "duration") return DataType::Duration(unit);
  return bad();
}

}  // namespace higgins::testing
