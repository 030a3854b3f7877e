#include "higgins/arrow/type.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <string>
#include <vector>

#include "common/nearest_word.h"
#include "common/tz_database.h"

namespace higgins::arrow {

std::string_view TimeUnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return "s";
    case TimeUnit::kMilli: return "ms";
    case TimeUnit::kMicro: return "us";
    case TimeUnit::kNano: return "ns";
  }
  return "?";
}

DataType DataType::FixedSizeBinary(int32_t byte_width) {
  DataType t(TypeId::kFixedSizeBinary);
  t.byte_width_ = byte_width;
  return t;
}

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): Arrow's decimal128(p, s)
DataType DataType::Decimal128(int32_t precision, int32_t scale) {
  DataType t(TypeId::kDecimal128);
  t.precision_ = precision;
  t.scale_ = scale;
  return t;
}

DataType DataType::Timestamp(TimeUnit unit, std::string timezone) {
  DataType t(TypeId::kTimestamp);
  t.unit_ = unit;
  t.timezone_ = std::move(timezone);
  return t;
}

DataType DataType::Time32(TimeUnit unit) {
  DataType t(TypeId::kTime32);
  t.unit_ = unit;
  return t;
}

DataType DataType::Time64(TimeUnit unit) {
  DataType t(TypeId::kTime64);
  t.unit_ = unit;
  return t;
}

DataType DataType::Duration(TimeUnit unit) {
  DataType t(TypeId::kDuration);
  t.unit_ = unit;
  return t;
}

Layout DataType::layout() const {
  switch (id_) {
    case TypeId::kNull: return Layout::kNull;
    case TypeId::kUtf8:
    case TypeId::kBinary: return Layout::kVarBinary;
    case TypeId::kLargeUtf8:
    case TypeId::kLargeBinary: return Layout::kLargeVarBinary;
    default: return Layout::kFixedWidth;
  }
}

int64_t DataType::bit_width() const {
  switch (id_) {
    case TypeId::kBool: return 1;
    case TypeId::kInt8:
    case TypeId::kUInt8: return 8;
    case TypeId::kInt16:
    case TypeId::kUInt16:
    case TypeId::kFloat16: return 16;
    case TypeId::kInt32:
    case TypeId::kUInt32:
    case TypeId::kFloat32:
    case TypeId::kDate32:
    case TypeId::kTime32: return 32;
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kFloat64:
    case TypeId::kDate64:
    case TypeId::kTimestamp:
    case TypeId::kTime64:
    case TypeId::kDuration: return 64;
    case TypeId::kDecimal128: return 128;
    case TypeId::kFixedSizeBinary: return int64_t{byte_width_} * 8;
    default: return 0;
  }
}

int DataType::num_buffers() const {
  switch (layout()) {
    case Layout::kNull: return 0;
    case Layout::kFixedWidth: return 2;
    default: return 3;
  }
}

Status DataType::Validate() const {
  switch (id_) {
    case TypeId::kDecimal128:
      if (precision_ < 1 || precision_ > kMaxDecimal128Precision) {
        return Status::InvalidArgument("decimal128 precision must be 1..38, got " +
                                       std::to_string(precision_));
      }
      if (scale_ < 0 || scale_ > precision_) {
        return Status::InvalidArgument("decimal128 scale must be 0..precision, got " +
                                       std::to_string(scale_));
      }
      return Status::OK();
    case TypeId::kFixedSizeBinary:
      if (byte_width_ < 0 || byte_width_ > kMaxFixedSizeBinaryWidth) {
        return Status::InvalidArgument("fixed_size_binary width must be 0.." +
                                       std::to_string(kMaxFixedSizeBinaryWidth) + ", got " +
                                       std::to_string(byte_width_));
      }
      return Status::OK();
    case TypeId::kTime32:
      if (unit_ != TimeUnit::kSecond && unit_ != TimeUnit::kMilli) {
        return Status::InvalidArgument("time32 unit must be s or ms");
      }
      return Status::OK();
    case TypeId::kTime64:
      if (unit_ != TimeUnit::kMicro && unit_ != TimeUnit::kNano) {
        return Status::InvalidArgument("time64 unit must be us or ns");
      }
      return Status::OK();
    default: return Status::OK();
  }
}

std::string DataType::ToString() const {
  switch (id_) {
    case TypeId::kNull: return "null";
    case TypeId::kBool: return "bool";
    case TypeId::kInt8: return "int8";
    case TypeId::kInt16: return "int16";
    case TypeId::kInt32: return "int32";
    case TypeId::kInt64: return "int64";
    case TypeId::kUInt8: return "uint8";
    case TypeId::kUInt16: return "uint16";
    case TypeId::kUInt32: return "uint32";
    case TypeId::kUInt64: return "uint64";
    case TypeId::kFloat16: return "halffloat";
    case TypeId::kFloat32: return "float";
    case TypeId::kFloat64: return "double";
    case TypeId::kUtf8: return "utf8";
    case TypeId::kLargeUtf8: return "large_utf8";
    case TypeId::kBinary: return "binary";
    case TypeId::kLargeBinary: return "large_binary";
    case TypeId::kFixedSizeBinary: return "fixed_size_binary[" + std::to_string(byte_width_) + "]";
    case TypeId::kDate32: return "date32[day]";
    case TypeId::kDate64: return "date64[ms]";
    case TypeId::kTimestamp: {
      std::string s = "timestamp[" + std::string(TimeUnitName(unit_));
      if (!timezone_.empty()) s += ", tz=" + timezone_;
      return s + "]";
    }
    case TypeId::kTime32: return "time32[" + std::string(TimeUnitName(unit_)) + "]";
    case TypeId::kTime64: return "time64[" + std::string(TimeUnitName(unit_)) + "]";
    case TypeId::kDuration: return "duration[" + std::string(TimeUnitName(unit_)) + "]";
    case TypeId::kDecimal128:
      return "decimal128(" + std::to_string(precision_) + ", " + std::to_string(scale_) + ")";
  }
  return "unknown";
}

namespace {

constexpr std::string_view kValidTags =
    "string, large_string, bytes, large_bytes, bool, int8, int16, int32, int64, uint8, uint16, "
    "uint32, uint64, float16, float32, float64, date32, date64, decimal, decimal(P,S), timestamp, "
    "timestamp(UNIT[,TZ]), time32(s|ms), time64(us|ns), duration(UNIT), fixed_size_binary(N), "
    "null";

struct SimpleTag {
  std::string_view tag;
  TypeId id;
};

constexpr std::array<SimpleTag, 25> kSimpleTags = {{
    {"string", TypeId::kUtf8},          {"utf8", TypeId::kUtf8},
    {"large_string", TypeId::kLargeUtf8}, {"large_utf8", TypeId::kLargeUtf8},
    {"bytes", TypeId::kBinary},         {"binary", TypeId::kBinary},
    {"large_bytes", TypeId::kLargeBinary}, {"large_binary", TypeId::kLargeBinary},
    {"bool", TypeId::kBool},            {"boolean", TypeId::kBool},
    {"int8", TypeId::kInt8},            {"int16", TypeId::kInt16},
    {"int32", TypeId::kInt32},          {"int64", TypeId::kInt64},
    {"uint8", TypeId::kUInt8},          {"uint16", TypeId::kUInt16},
    {"uint32", TypeId::kUInt32},        {"uint64", TypeId::kUInt64},
    {"float16", TypeId::kFloat16},      {"float32", TypeId::kFloat32},
    {"float64", TypeId::kFloat64},      {"date32", TypeId::kDate32},
    {"date64", TypeId::kDate64},        {"null", TypeId::kNull},
    {"timestamp", TypeId::kTimestamp},
}};

/// Blanks (spaces and tabs, no other white space) may stand around a tag's tokens: before and
/// after the tag, around its parentheses and commas. The configuration's window sizes follow
/// the same rule.
bool IsBlank(char c) {
  return c == ' ' || c == '\t';
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsBlank(s.back())) s.remove_suffix(1);
  return s;
}

// Every name a tag may start with, for "did you mean": the simple tags, then those that take
// arguments.
std::vector<std::string_view> TagNames() {
  std::vector<std::string_view> names;
  names.reserve(std::size(kSimpleTags) + 6);
  for (const SimpleTag& s : kSimpleTags) names.push_back(s.tag);
  for (std::string_view name :
       {"decimal", "decimal128", "time32", "time64", "duration", "fixed_size_binary"}) {
    names.push_back(name);
  }
  return names;
}

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): (tag, why) of a message
Status BadTag(std::string_view tag, std::string_view why = {}) {
  std::string m = "unknown type tag '" + std::string(tag) + "'";
  if (!why.empty()) m += " (" + std::string(why) + ")";
  m += "; valid tags: " + std::string(kValidTags);
  return Status::InvalidArgument(std::move(m));
}

// An unknown name (`name` is the tag's name without its arguments), with the nearest valid one.
// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): (tag, its name)
Status UnknownName(std::string_view tag, std::string_view name) {
  const std::vector<std::string_view> names = TagNames();
  const std::optional<std::string_view> nearest = NearestWord(name, names);
  if (!nearest) return BadTag(tag);
  return BadTag(tag, "did you mean " + std::string(*nearest) + "?");
}

std::optional<TimeUnit> ParseUnit(std::string_view s) {
  if (s == "s") return TimeUnit::kSecond;
  if (s == "ms") return TimeUnit::kMilli;
  if (s == "us") return TimeUnit::kMicro;
  if (s == "ns") return TimeUnit::kNano;
  return std::nullopt;
}

std::optional<int32_t> ParseInt(std::string_view s) {
  int32_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// A time zone as Arrow's Schema.fbs allows it: an IANA name ("UTC", "Europe/Paris") or a fixed
// offset "+HH:MM" / "-HH:MM". Names must be zones of the system's tz database (common/
// tz_database.h); on a system without one, only their shape is checked.
Status ValidateTimeZone(std::string_view tz) {
  auto digits = [](std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (tz.front() == '+' || tz.front() == '-') {
    if (tz.size() == 6 && tz[3] == ':' && digits(tz.substr(1, 2)) && digits(tz.substr(4, 2)) &&
        std::stoi(std::string(tz.substr(1, 2))) <= 23 &&
        std::stoi(std::string(tz.substr(4, 2))) <= 59) {
      return Status::OK();
    }
    return Status::InvalidArgument("time zone offset '" + std::string(tz) +
                                   "' must be +HH:MM or -HH:MM");
  }
  const bool shape_ok =
      tz.size() <= 64 && std::isalpha(static_cast<unsigned char>(tz.front())) &&
      std::all_of(tz.begin(), tz.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '+' ||
               c == '/';
      });
  if (!shape_ok) {
    return Status::InvalidArgument("time zone '" + std::string(tz) +
                                   "' is not a time zone name (like UTC or Europe/Paris) or an "
                                   "offset (like +02:00)");
  }
  // Without a tz database on this system, the shape is all that can be checked.
  if (IsTzZone(tz) == false) {
    return Status::InvalidArgument("time zone '" + std::string(tz) +
                                   "' is not in the tz database (" + TzDatabaseDir() +
                                   "): use a zone name like UTC or Europe/Paris, or an offset "
                                   "like +02:00");
  }
  return Status::OK();
}

std::vector<std::string_view> SplitArgs(std::string_view args) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    size_t comma = args.find(',', start);
    out.push_back(Trim(args.substr(start, comma == std::string_view::npos ? comma : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

Result<DataType> ParseTypeTag(std::string_view raw) {
  std::string_view tag = Trim(raw);
  size_t paren = tag.find('(');
  if (paren == std::string_view::npos) {
    if (tag == "decimal" || tag == "decimal128") {
      return DataType::Decimal128(kDefaultDecimalPrecision, kDefaultDecimalScale);
    }
    for (const SimpleTag& s : kSimpleTags) {
      if (s.tag == tag) {
        if (s.id == TypeId::kTimestamp) return DataType::Timestamp(TimeUnit::kMilli);
        switch (s.id) {
          case TypeId::kNull: return DataType::Null();
          case TypeId::kBool: return DataType::Bool();
          case TypeId::kInt8: return DataType::Int8();
          case TypeId::kInt16: return DataType::Int16();
          case TypeId::kInt32: return DataType::Int32();
          case TypeId::kInt64: return DataType::Int64();
          case TypeId::kUInt8: return DataType::UInt8();
          case TypeId::kUInt16: return DataType::UInt16();
          case TypeId::kUInt32: return DataType::UInt32();
          case TypeId::kUInt64: return DataType::UInt64();
          case TypeId::kFloat16: return DataType::Float16();
          case TypeId::kFloat32: return DataType::Float32();
          case TypeId::kFloat64: return DataType::Float64();
          case TypeId::kUtf8: return DataType::Utf8();
          case TypeId::kLargeUtf8: return DataType::LargeUtf8();
          case TypeId::kBinary: return DataType::Binary();
          case TypeId::kLargeBinary: return DataType::LargeBinary();
          case TypeId::kDate32: return DataType::Date32();
          case TypeId::kDate64: return DataType::Date64();
          default: break;
        }
      }
    }
    return UnknownName(raw, tag);
  }
  if (tag.back() != ')') return BadTag(raw, "missing ')'");
  std::string_view name = Trim(tag.substr(0, paren));
  std::vector<std::string_view> args = SplitArgs(tag.substr(paren + 1, tag.size() - paren - 2));
  DataType type;
  if (name == "decimal" || name == "decimal128") {
    if (args.size() != 2) return BadTag(raw, "decimal takes (precision, scale)");
    auto p = ParseInt(args[0]);
    auto s = ParseInt(args[1]);
    if (!p || !s) return BadTag(raw, "precision and scale must be integers");
    type = DataType::Decimal128(*p, *s);
  } else if (name == "timestamp") {
    if (args.empty() || args.size() > 2) return BadTag(raw, "timestamp takes (unit[, timezone])");
    auto unit = ParseUnit(args[0]);
    if (!unit) return BadTag(raw, "unit must be s, ms, us or ns");
    if (args.size() == 2 && args[1].empty()) return BadTag(raw, "empty time zone");
    if (args.size() == 2) {
      if (Status st = ValidateTimeZone(args[1]); !st.ok()) return BadTag(raw, st.message());
    }
    type = DataType::Timestamp(*unit, args.size() == 2 ? std::string(args[1]) : std::string());
  } else if (name == "time32" || name == "time64" || name == "duration") {
    if (args.size() != 1) return BadTag(raw, std::string(name) + " takes (unit)");
    auto unit = ParseUnit(args[0]);
    if (!unit) return BadTag(raw, "unit must be s, ms, us or ns");
    type = name == "time32"   ? DataType::Time32(*unit)
           : name == "time64" ? DataType::Time64(*unit)
                              : DataType::Duration(*unit);
  } else if (name == "fixed_size_binary") {
    auto w = ParseInt(args.size() == 1 ? args[0] : std::string_view());
    if (args.size() != 1 || !w || *w < 1) {
      return BadTag(raw, "fixed_size_binary takes (byte width >= 1)");
    }
    type = DataType::FixedSizeBinary(*w);
  } else {
    return UnknownName(raw, name);
  }
  Status st = type.Validate();
  if (!st.ok()) return BadTag(raw, st.message());
  return type;
}

std::string TypeTag(const DataType& type) {
  switch (type.id()) {
    case TypeId::kUtf8: return "string";
    case TypeId::kLargeUtf8: return "large_string";
    case TypeId::kBinary: return "bytes";
    case TypeId::kLargeBinary: return "large_bytes";
    case TypeId::kFloat16: return "float16";
    case TypeId::kFloat32: return "float32";
    case TypeId::kFloat64: return "float64";
    case TypeId::kDate32: return "date32";
    case TypeId::kDate64: return "date64";
    case TypeId::kDecimal128:
      return "decimal(" + std::to_string(type.precision()) + "," + std::to_string(type.scale()) + ")";
    case TypeId::kTimestamp: {
      std::string s = "timestamp(" + std::string(TimeUnitName(type.unit()));
      if (!type.timezone().empty()) s += "," + type.timezone();
      return s + ")";
    }
    case TypeId::kTime32:
    case TypeId::kTime64:
    case TypeId::kDuration: {
      std::string n = type.id() == TypeId::kTime32   ? "time32"
                      : type.id() == TypeId::kTime64 ? "time64"
                                                     : "duration";
      return n + "(" + std::string(TimeUnitName(type.unit())) + ")";
    }
    case TypeId::kFixedSizeBinary:
      return "fixed_size_binary(" + std::to_string(type.byte_width()) + ")";
    default: return type.ToString();
  }
}

}  // namespace higgins::arrow
