#include "arrow/json/value_parser.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "higgins/arrow/float16.h"
#include "arrow/json/base64.h"
#include "arrow/json/number_text.h"
#include "arrow/json/temporal.h"
#include "arrow/utf8.h"

namespace higgins::arrow::json {
namespace {

constexpr size_t kExcerptBytes = 40;

/// How a rejected value is shown: its JSON number token as is, string contents in quotes.
std::string Shown(std::string_view text, bool quoted) {
  return quoted ? QuotedExcerpt(text) : Excerpt(text);
}

Status Error(StatusCode code, std::string what, std::string_view text, bool quoted) {
  what += " (got ";
  what += Shown(text, quoted);
  what += ')';
  return Status(code, std::move(what));
}

Status OutOfRangeError(const DataType& type, std::string_view text, bool quoted) {
  return Error(StatusCode::kOutOfRange, "out of range for " + TypeTag(type), text, quoted);
}

/// The accepted forms of each type, for WrongKind messages.
std::string_view ExpectedForms(const DataType& type) {
  switch (type.id()) {
    case TypeId::kNull: return "null";
    case TypeId::kBool: return "true or false";
    case TypeId::kFloat16:
    case TypeId::kFloat32:
    case TypeId::kFloat64: return "a number or \"NaN\", \"Infinity\", \"-Infinity\"";
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8: return "a string";
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
    case TypeId::kFixedSizeBinary: return "a base64 string";
    case TypeId::kDate32: return "a date string (YYYY-MM-DD) or integer days";
    case TypeId::kDate64: return "a date or date-time string or integer milliseconds";
    case TypeId::kTimestamp: return "a date-time string or integer";
    case TypeId::kTime32:
    case TypeId::kTime64: return "a time string (HH:MM:SS[.fraction]) or integer";
    case TypeId::kDuration: return "an integer";
    case TypeId::kDecimal128: return "a number or decimal string";
    default: return "an integer";
  }
}

template <typename T>
Status AppendChecked(ArrayBuilder* builder, __int128 v, std::string_view text, bool quoted) {
  if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) {
    return OutOfRangeError(builder->type(), text, quoted);
  }
  builder->AppendPrimitive<T>(static_cast<T>(v));
  return Status::OK();
}

/// Appends an integer-valued number to any integer or temporal type, range-checked.
Status AppendIntegerValue(ArrayBuilder* builder, __int128 v, std::string_view text, bool quoted) {
  const DataType& type = builder->type();
  switch (type.id()) {
    case TypeId::kInt8: return AppendChecked<int8_t>(builder, v, text, quoted);
    case TypeId::kInt16: return AppendChecked<int16_t>(builder, v, text, quoted);
    case TypeId::kInt32:
    case TypeId::kDate32: return AppendChecked<int32_t>(builder, v, text, quoted);
    case TypeId::kInt64:
    case TypeId::kDate64:
    case TypeId::kTimestamp:
    case TypeId::kDuration: return AppendChecked<int64_t>(builder, v, text, quoted);
    case TypeId::kUInt8: return AppendChecked<uint8_t>(builder, v, text, quoted);
    case TypeId::kUInt16: return AppendChecked<uint16_t>(builder, v, text, quoted);
    case TypeId::kUInt32: return AppendChecked<uint32_t>(builder, v, text, quoted);
    case TypeId::kUInt64: return AppendChecked<uint64_t>(builder, v, text, quoted);
    case TypeId::kTime32:
    case TypeId::kTime64: {
      const int64_t units_per_day = kSecondsPerDay * UnitsPerSecond(type.unit());
      if (v < 0 || v >= units_per_day) {
        return OutOfRangeError(type, text, quoted);
      }
      if (type.id() == TypeId::kTime32) {
        builder->AppendPrimitive<int32_t>(static_cast<int32_t>(v));
      } else {
        builder->AppendPrimitive<int64_t>(static_cast<int64_t>(v));
      }
      return Status::OK();
    }
    default: return Status::Internal("not an integer type: " + TypeTag(type));
  }
}

Status AppendIntegerText(ArrayBuilder* builder, std::string_view text) {
  __int128 v = 0;
  switch (ParseIntegral(text, &v)) {
    case IntegralResult::kOk: return AppendIntegerValue(builder, v, text, false);
    case IntegralResult::kNotANumber: return WrongKind(builder->type(), Excerpt(text));
    case IntegralResult::kFraction:
      return Error(StatusCode::kInvalidArgument,
                   "not an integer (fractional part) for " + TypeTag(builder->type()), text, false);
    case IntegralResult::kOverflow: return OutOfRangeError(builder->type(), text, false);
  }
  return Status::Internal("unreachable");
}

void AppendFloatValue(ArrayBuilder* builder, double v) {
  switch (builder->type().id()) {
    case TypeId::kFloat16: builder->AppendPrimitive<uint16_t>(DoubleToHalf(v)); break;
    case TypeId::kFloat32: builder->AppendPrimitive<float>(static_cast<float>(v)); break;
    default: builder->AppendPrimitive<double>(v); break;
  }
}

/// m such that a non-zero number lies in [10^(m-1), 10^m).
int64_t DecimalMagnitude(const NumberParts& parts) {
  const size_t lead = parts.int_digits.find_first_not_of('0');
  if (lead != std::string_view::npos) {
    return static_cast<int64_t>(parts.int_digits.size() - lead) + parts.exponent;
  }
  const size_t frac_lead = parts.frac_digits.find_first_not_of('0');
  return parts.exponent - static_cast<int64_t>(frac_lead);
}

/// from_chars reports both overflow and underflow as out of range; an underflow is a zero.
template <typename T>
bool ParseFloat(std::string_view text, const NumberParts& parts, T* out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  if (ec == std::errc()) return end == text.data() + text.size();
  if (ec != std::errc::result_out_of_range || DecimalMagnitude(parts) > 0) return false;
  *out = parts.negative ? -T{0} : T{0};
  return true;
}

/// The value of a half's magnitude bits as a double; infinity counts as 65536, the next step
/// after 65504, so that 65520 is halfway between the largest half and overflow.
double HalfMagnitude(uint16_t magnitude) {
  return magnitude == 0x7C00 ? 65536.0 : static_cast<double>(HalfToFloat(magnitude));
}

/// The number `parts` rounded to float16, to nearest, ties to even, given `v`, the double
/// nearest to it. DoubleToHalf(v) is that, except when v lies exactly halfway between two halves
/// while the number does not (it has more digits than a double holds): then the side of the
/// halfway point the number lies on decides.
uint16_t RoundToHalf(double v, const NumberParts& parts) {
  const uint16_t half = DoubleToHalf(v);
  const double a = std::fabs(v);
  if (!(a < 65536.0)) return half;  // NaN, infinity, or far beyond the largest half
  const auto magnitude = static_cast<uint16_t>(half & 0x7FFF);
  const double h = HalfMagnitude(magnitude);
  if (h == a) return half;
  const auto other = static_cast<uint16_t>(h < a ? magnitude + 1 : magnitude - 1);
  if ((h + HalfMagnitude(other)) / 2 != a) return half;  // exact: both are halves
  // A halfway point has at most 30 significant decimal digits; 40 is exact.
  char digits[64];
  const auto written =
      std::to_chars(digits, digits + sizeof(digits), a, std::chars_format::scientific, 40);
  NumberParts halfway;
  if (written.ec != std::errc() ||
      !SplitJsonNumber(std::string_view(digits, static_cast<size_t>(written.ptr - digits)),
                       &halfway)) {
    return half;
  }
  const int side = CompareMagnitudes(parts, halfway);
  if (side == 0) return half;  // a true tie, rounded to even
  const uint16_t nearer = side > 0 ? std::max(magnitude, other) : std::min(magnitude, other);
  return static_cast<uint16_t>((half & 0x8000) | nearer);
}

Status AppendFloatText(ArrayBuilder* builder, std::string_view text) {
  NumberParts parts;
  if (!SplitJsonNumber(text, &parts)) return WrongKind(builder->type(), Excerpt(text));
  if (builder->type().id() == TypeId::kFloat32) {
    float v = 0;
    if (!ParseFloat(text, parts, &v)) return OutOfRangeError(builder->type(), text, false);
    builder->AppendPrimitive<float>(v);
    return Status::OK();
  }
  double v = 0;
  if (!ParseFloat(text, parts, &v)) return OutOfRangeError(builder->type(), text, false);
  if (builder->type().id() == TypeId::kFloat16) {
    // Rounded once, from the text's exact value (text -> float -> half rounded twice).
    const uint16_t half = RoundToHalf(v, parts);
    if ((half & 0x7FFF) == 0x7C00) return OutOfRangeError(builder->type(), text, false);
    builder->AppendPrimitive<uint16_t>(half);
    return Status::OK();
  }
  builder->AppendPrimitive<double>(v);
  return Status::OK();
}

Status AppendDecimalText(ArrayBuilder* builder, std::string_view text, bool quoted) {
  const DataType& type = builder->type();
  NumberParts parts;
  if (!SplitJsonNumber(text, &parts)) {
    return Error(StatusCode::kInvalidArgument, "not a decimal number for " + TypeTag(type), text,
                 quoted);
  }
  __int128 unscaled = 0;
  switch (ScaleDecimal(parts, {.precision = type.precision(), .scale = type.scale()}, &unscaled)) {
    case DecimalResult::kOk: builder->AppendDecimal128(unscaled); return Status::OK();
    case DecimalResult::kTooManyFractionalDigits:
      return Error(StatusCode::kInvalidArgument,
                   "more fractional digits than the scale (" + std::to_string(type.scale()) +
                       ") of " + TypeTag(type),
                   text, quoted);
    case DecimalResult::kOverflow: return OutOfRangeError(type, text, quoted);
  }
  return Status::Internal("unreachable");
}

/// Wraps a temporal parse error with the value; OutOfRange names the type.
Status TemporalError(const Status& status, const DataType& type, std::string_view text) {
  if (status.code() == StatusCode::kOutOfRange) return OutOfRangeError(type, text, true);
  return Error(status.code(), status.message() + " for " + TypeTag(type), text, true);
}

bool IsContinuationByte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace

std::string Excerpt(std::string_view raw) {
  bool truncated = false;
  if (raw.size() > kExcerptBytes) {
    size_t cut = kExcerptBytes;
    while (cut > 0 && IsContinuationByte(raw[cut])) --cut;
    raw = raw.substr(0, cut);
    truncated = true;
  }
  const bool valid_utf8 = IsValidUtf8(raw);
  std::string out;
  out.reserve(raw.size() + 3);
  for (char c : raw) {
    const auto byte = static_cast<unsigned char>(c);
    const bool replace = byte < 0x20 || byte == 0x7F || (byte >= 0x80 && !valid_utf8);
    out.push_back(replace ? '?' : c);
  }
  if (truncated) out.append("...");
  return out;
}

std::string QuotedExcerpt(std::string_view text) {
  return "\"" + Excerpt(text) + "\"";
}

bool IsJsonNumber(std::string_view text) {
  NumberParts parts;
  return SplitJsonNumber(text, &parts);
}

Status WrongKind(const DataType& type, std::string_view excerpt) {
  return Status::InvalidArgument(TypeTag(type) + " expects " + std::string(ExpectedForms(type)) +
                                 " (got " + std::string(excerpt) + ")");
}

Status ValueParser::AppendNumber(ArrayBuilder* builder, std::string_view text) {
  const DataType& type = builder->type();
  if (type.is_integer() || type.is_temporal()) return AppendIntegerText(builder, text);
  if (type.is_floating()) return AppendFloatText(builder, text);
  if (type.id() == TypeId::kDecimal128) return AppendDecimalText(builder, text, false);
  return WrongKind(type, Excerpt(text));
}

Status ValueParser::AppendString(ArrayBuilder* builder, std::string_view text) {
  const DataType& type = builder->type();
  switch (type.id()) {
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8: return builder->AppendBinary(text);
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
    case TypeId::kFixedSizeBinary: return AppendBase64(builder, text);
    case TypeId::kFloat16:
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      if (text == "NaN") {
        AppendFloatValue(builder, std::numeric_limits<double>::quiet_NaN());
      } else if (text == "Infinity") {
        AppendFloatValue(builder, std::numeric_limits<double>::infinity());
      } else if (text == "-Infinity") {
        AppendFloatValue(builder, -std::numeric_limits<double>::infinity());
      } else {
        return WrongKind(type, QuotedExcerpt(text));
      }
      return Status::OK();
    case TypeId::kDecimal128: return AppendDecimalText(builder, text, true);
    case TypeId::kDate32: {
      Result<int32_t> days = ParseDate32(text);
      if (!days.ok()) return TemporalError(days.status(), type, text);
      builder->AppendPrimitive<int32_t>(*days);
      return Status::OK();
    }
    case TypeId::kDate64:
    case TypeId::kTimestamp: {
      const TimeUnit unit = type.id() == TypeId::kDate64 ? TimeUnit::kMilli : type.unit();
      Result<int64_t> value = ParseTimestamp(text, unit);
      if (!value.ok()) return TemporalError(value.status(), type, text);
      builder->AppendPrimitive<int64_t>(*value);
      return Status::OK();
    }
    case TypeId::kTime32:
    case TypeId::kTime64: {
      Result<int64_t> value = ParseTimeOfDay(text, type.unit());
      if (!value.ok()) return TemporalError(value.status(), type, text);
      if (type.id() == TypeId::kTime32) {
        builder->AppendPrimitive<int32_t>(static_cast<int32_t>(*value));
      } else {
        builder->AppendPrimitive<int64_t>(*value);
      }
      return Status::OK();
    }
    default: return WrongKind(type, QuotedExcerpt(text));
  }
}

Status ValueParser::AppendBase64(ArrayBuilder* builder, std::string_view text) {
  const DataType& type = builder->type();
  if (!Base64Decode(text, &scratch_)) {
    return Error(StatusCode::kInvalidArgument,
                 "invalid base64 (RFC 4648 standard alphabet with padding) for " + TypeTag(type),
                 text, true);
  }
  if (type.id() == TypeId::kFixedSizeBinary &&
      scratch_.size() != static_cast<size_t>(type.byte_width())) {
    return Error(StatusCode::kInvalidArgument,
                 "decodes to " + std::to_string(scratch_.size()) + " bytes, " + TypeTag(type) +
                     " needs " + std::to_string(type.byte_width()),
                 text, true);
  }
  return builder->AppendBinary(scratch_);
}

Status ValueParser::AppendBool(ArrayBuilder* builder, bool value) {
  if (builder->type().id() != TypeId::kBool) {
    return WrongKind(builder->type(), value ? "true" : "false");
  }
  builder->AppendBool(value);
  return Status::OK();
}

Status ValueParser::AppendText(ArrayBuilder* builder, std::string_view text) {
  const DataType& type = builder->type();
  switch (type.id()) {
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8:
      if (!IsValidUtf8(text)) {
        return Error(StatusCode::kInvalidArgument, "invalid UTF-8 for " + TypeTag(type), text,
                     true);
      }
      return builder->AppendBinary(text);
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
    case TypeId::kFixedSizeBinary: return AppendBase64(builder, text);
    case TypeId::kBool:
      if (text == "true" || text == "false") return AppendBool(builder, text == "true");
      return WrongKind(type, QuotedExcerpt(text));
    case TypeId::kNull: return WrongKind(type, QuotedExcerpt(text));
    default:
      if (IsJsonNumber(text)) return AppendNumber(builder, text);
      return AppendString(builder, text);
  }
}

}  // namespace higgins::arrow::json
