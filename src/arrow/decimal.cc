#include "higgins/arrow/decimal.h"

#include <algorithm>
#include <cctype>

namespace higgins::arrow {
namespace {

__int128 Pow10(int n) {
  __int128 v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

// Above any input's digit count, so saturating never changes the outcome; small enough that the
// shift arithmetic below stays far from overflow.
constexpr int64_t kMaxExponent = int64_t{1} << 40;

std::string Quote(std::string_view text) {
  constexpr size_t kMax = 48;
  std::string s(text.substr(0, kMax));
  if (text.size() > kMax) s += "...";
  return "'" + s + "'";
}

}  // namespace

__int128 MaxDecimalMagnitude(int precision) { return Pow10(precision) - 1; }

Result<__int128> ParseDecimal(std::string_view text, int precision, int scale) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  // Split mantissa and exponent.
  int64_t exponent = 0;
  size_t e_pos = s.find_first_of("eE");
  if (e_pos != std::string_view::npos) {
    std::string_view exp_text = s.substr(e_pos + 1);
    s = s.substr(0, e_pos);
    bool exp_negative = false;
    if (!exp_text.empty() && (exp_text.front() == '-' || exp_text.front() == '+')) {
      exp_negative = exp_text.front() == '-';
      exp_text.remove_prefix(1);
    }
    if (exp_text.empty()) return Status::InvalidArgument("invalid decimal " + Quote(text));
    for (char c : exp_text) {
      if (!std::isdigit(static_cast<unsigned char>(c))) {
        return Status::InvalidArgument("invalid decimal " + Quote(text));
      }
      // Saturate: any exponent this large already decides the outcome (zero, or out of range).
      exponent = std::min<int64_t>(exponent * 10 + (c - '0'), kMaxExponent);
    }
    if (exp_negative) exponent = -exponent;
  }
  // Collect digits, remembering how many follow the point.
  std::string digits;
  int64_t frac_digits = 0;
  bool seen_point = false;
  for (char c : s) {
    if (c == '.' && !seen_point) {
      seen_point = true;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      digits.push_back(c);
      if (seen_point) ++frac_digits;
    } else {
      return Status::InvalidArgument("invalid decimal " + Quote(text));
    }
  }
  if (digits.empty()) return Status::InvalidArgument("invalid decimal " + Quote(text));
  if (digits.find_first_not_of('0') == std::string::npos) return __int128{0};  // any exponent
  // value = digits * 10^(exponent - frac_digits); unscaled = value * 10^scale.
  int64_t shift = exponent - frac_digits + scale;
  if (shift < 0) {
    // Dropping digits is allowed only if they are zeros (exact conversion, no rounding).
    const size_t drop =
        static_cast<size_t>(std::min<int64_t>(-shift, static_cast<int64_t>(digits.size())));
    const size_t keep = digits.size() > drop ? digits.size() - drop : 0;
    if (!std::all_of(digits.begin() + static_cast<std::ptrdiff_t>(keep), digits.end(),
                     [](char c) { return c == '0'; })) {
      return Status::InvalidArgument("decimal " + Quote(text) + " has more than " +
                                     std::to_string(scale) + " fractional digits");
    }
    digits.resize(keep);
    shift = 0;
  }
  // Strip leading zeros, then check the digit count against the precision.
  size_t first = digits.find_first_not_of('0');
  digits = first == std::string::npos ? std::string() : digits.substr(first);
  if (static_cast<int64_t>(digits.size()) + (digits.empty() ? 0 : shift) > precision) {
    return Status::OutOfRange("decimal " + Quote(text) + " does not fit decimal(" +
                              std::to_string(precision) + "," + std::to_string(scale) + ")");
  }
  __int128 v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  if (!digits.empty()) v *= Pow10(static_cast<int>(shift));
  return negative ? -v : v;
}

std::string Int128ToString(__int128 value) {
  if (value == 0) return "0";
  const bool negative = value < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(value)
                                 : static_cast<unsigned __int128>(value);
  std::string out;
  while (u != 0) {
    out.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (negative) out.push_back('-');
  std::reverse(out.begin(), out.end());
  return out;
}

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): (unscaled, scale) as Arrow's
std::string FormatDecimal(__int128 unscaled, int scale) {
  std::string digits = Int128ToString(unscaled);
  const bool negative = digits[0] == '-';
  std::string_view magnitude(digits);
  if (negative) magnitude.remove_prefix(1);
  std::string out = negative ? "-" : "";
  if (scale <= 0) {
    out += magnitude;
    out.append(static_cast<size_t>(-scale), '0');
    return out;
  }
  const size_t frac = static_cast<size_t>(scale);
  if (magnitude.size() <= frac) {  // 0.00ddd
    out += "0.";
    out.append(frac - magnitude.size(), '0');
    out += magnitude;
    return out;
  }
  out += magnitude.substr(0, magnitude.size() - frac);
  out += '.';
  out += magnitude.substr(magnitude.size() - frac);
  return out;
}

}  // namespace higgins::arrow
