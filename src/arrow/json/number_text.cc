#include "arrow/json/number_text.h"

#include <algorithm>

namespace higgins::arrow::json {
namespace {

constexpr int64_t kExponentLimit = 1'000'000'000;

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

/// Significant digits: the integer and fraction digits with leading and trailing zeros removed,
/// and the power of ten to multiply them by.
struct Significand {
  std::string_view int_part;   // leading part of the digits (from int_digits)
  std::string_view frac_part;  // trailing part (from frac_digits)
  int64_t power = 0;
};

Significand Normalize(const NumberParts& parts) {
  Significand s;
  std::string_view int_digits = parts.int_digits;
  std::string_view frac_digits = parts.frac_digits;
  int64_t power = parts.exponent - static_cast<int64_t>(frac_digits.size());
  // Trailing zeros move into the power of ten.
  while (!frac_digits.empty() && frac_digits.back() == '0') {
    frac_digits.remove_suffix(1);
    ++power;
  }
  if (frac_digits.empty()) {
    while (!int_digits.empty() && int_digits.back() == '0') {
      int_digits.remove_suffix(1);
      ++power;
    }
  }
  // Leading zeros carry no value.
  while (!int_digits.empty() && int_digits.front() == '0') int_digits.remove_prefix(1);
  if (int_digits.empty()) {
    while (!frac_digits.empty() && frac_digits.front() == '0') frac_digits.remove_prefix(1);
  }
  s.int_part = int_digits;
  s.frac_part = frac_digits;
  s.power = power;
  return s;
}

bool IsZero(const Significand& s) {
  return s.int_part.empty() && s.frac_part.empty();
}

/// Digit `i` of the significand's digits (int_part then frac_part), '0' past their end.
char DigitAt(const Significand& s, size_t i) {
  if (i < s.int_part.size()) return s.int_part[i];
  i -= s.int_part.size();
  return i < s.frac_part.size() ? s.frac_part[i] : '0';
}

}  // namespace

bool SplitJsonNumber(std::string_view text, NumberParts* parts) {
  *parts = NumberParts{};
  size_t pos = 0;
  const size_t n = text.size();
  if (pos < n && text[pos] == '-') {
    parts->negative = true;
    ++pos;
  }
  const size_t int_start = pos;
  if (pos < n && text[pos] == '0') {
    ++pos;
  } else {
    while (pos < n && IsDigit(text[pos])) ++pos;
  }
  if (pos == int_start) return false;
  parts->int_digits = text.substr(int_start, pos - int_start);
  if (pos < n && text[pos] == '.') {
    const size_t frac_start = ++pos;
    while (pos < n && IsDigit(text[pos])) ++pos;
    if (pos == frac_start) return false;
    parts->frac_digits = text.substr(frac_start, pos - frac_start);
  }
  if (pos < n && (text[pos] == 'e' || text[pos] == 'E')) {
    ++pos;
    bool negative_exponent = false;
    if (pos < n && (text[pos] == '+' || text[pos] == '-')) negative_exponent = text[pos++] == '-';
    const size_t exp_start = pos;
    int64_t exponent = 0;
    while (pos < n && IsDigit(text[pos])) {
      exponent = std::min(exponent * 10 + (text[pos] - '0'), kExponentLimit);
      ++pos;
    }
    if (pos == exp_start) return false;
    parts->exponent = negative_exponent ? -exponent : exponent;
  }
  return pos == n;
}

int CompareMagnitudes(const NumberParts& a, const NumberParts& b) {
  const Significand x = Normalize(a);
  const Significand y = Normalize(b);
  if (IsZero(x) || IsZero(y)) return IsZero(x) == IsZero(y) ? 0 : (IsZero(x) ? -1 : 1);
  // Without leading zeros, the number of digits plus the power orders the magnitudes.
  const size_t x_digits = x.int_part.size() + x.frac_part.size();
  const size_t y_digits = y.int_part.size() + y.frac_part.size();
  const int64_t x_order = static_cast<int64_t>(x_digits) + x.power;
  const int64_t y_order = static_cast<int64_t>(y_digits) + y.power;
  if (x_order != y_order) return x_order < y_order ? -1 : 1;
  for (size_t i = 0; i < std::max(x_digits, y_digits); ++i) {
    const char dx = DigitAt(x, i);
    const char dy = DigitAt(y, i);
    if (dx != dy) return dx < dy ? -1 : 1;
  }
  return 0;
}

IntegralResult ParseIntegral(std::string_view text, __int128* value) {
  // Fast path: a plain integer of at most 18 digits.
  {
    const bool negative = !text.empty() && text[0] == '-';
    const size_t start = negative ? 1 : 0;
    const size_t digits = text.size() - start;
    if (digits > 0 && digits <= 18 && (text[start] != '0' || digits == 1)) {
      int64_t v = 0;
      size_t i = start;
      for (; i < text.size() && IsDigit(text[i]); ++i) v = v * 10 + (text[i] - '0');
      if (i == text.size()) {
        *value = negative ? -v : v;
        return IntegralResult::kOk;
      }
    }
  }
  NumberParts parts;
  if (!SplitJsonNumber(text, &parts)) return IntegralResult::kNotANumber;
  const Significand s = Normalize(parts);
  if (s.int_part.empty() && s.frac_part.empty()) {
    *value = 0;
    return IntegralResult::kOk;
  }
  if (s.power < 0) return IntegralResult::kFraction;
  const int64_t total_digits =
      static_cast<int64_t>(s.int_part.size() + s.frac_part.size()) + s.power;
  if (total_digits > 39) return IntegralResult::kOverflow;
  unsigned __int128 magnitude = 0;
  auto push = [&magnitude](int digit) {
    return !__builtin_mul_overflow(magnitude, 10u, &magnitude) &&
           !__builtin_add_overflow(magnitude, static_cast<unsigned>(digit), &magnitude);
  };
  for (char c : s.int_part) {
    if (!push(c - '0')) return IntegralResult::kOverflow;
  }
  for (char c : s.frac_part) {
    if (!push(c - '0')) return IntegralResult::kOverflow;
  }
  for (int64_t i = 0; i < s.power; ++i) {
    if (!push(0)) return IntegralResult::kOverflow;
  }
  const unsigned __int128 kMax = (static_cast<unsigned __int128>(1) << 127) - 1;
  if (magnitude > kMax) return IntegralResult::kOverflow;
  *value = parts.negative ? -static_cast<__int128>(magnitude) : static_cast<__int128>(magnitude);
  return IntegralResult::kOk;
}

DecimalResult ScaleDecimal(const NumberParts& parts, DecimalDigits decimal, __int128* unscaled) {
  const int precision = decimal.precision;
  const int scale = decimal.scale;
  const Significand s = Normalize(parts);
  if (s.int_part.empty() && s.frac_part.empty()) {
    *unscaled = 0;
    return DecimalResult::kOk;
  }
  // value = digits * 10^power, so unscaled = digits * 10^(power + scale). The power is bounded
  // by the saturated exponent (+-1e9) and the input size, so this cannot overflow.
  const int64_t zeros = s.power + scale;
  if (zeros < 0) return DecimalResult::kTooManyFractionalDigits;
  const int64_t digits = static_cast<int64_t>(s.int_part.size() + s.frac_part.size()) + zeros;
  if (digits > precision) return DecimalResult::kOverflow;
  // At most 38 digits: fits in an int128 (10^38 < 2^127).
  __int128 v = 0;
  for (char c : s.int_part) v = v * 10 + (c - '0');
  for (char c : s.frac_part) v = v * 10 + (c - '0');
  for (int64_t i = 0; i < zeros; ++i) v *= 10;
  *unscaled = parts.negative ? -v : v;
  return DecimalResult::kOk;
}

}  // namespace higgins::arrow::json
