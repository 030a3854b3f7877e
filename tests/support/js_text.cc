#include "tests/support/js_text.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace higgins::testing {

std::string JsNumberToString(double value) {
  if (std::isnan(value)) return "NaN";
  if (value == 0) return "0";
  if (std::isinf(value)) return value < 0 ? "-Infinity" : "Infinity";
  if (value < 0) return "-" + JsNumberToString(-value);

  // Shortest round-trip digits in scientific form: "d.ddde±x".
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific);
  std::string sci(buf, end);
  const size_t e_pos = sci.find('e');
  std::string digits;
  for (size_t i = 0; i < e_pos; ++i) {
    if (sci[i] != '.') digits += sci[i];
  }
  const int k = static_cast<int>(digits.size());
  const int n = std::atoi(sci.c_str() + e_pos + 1) + 1;  // value = 0.digits * 10^n

  if (k <= n && n <= 21) return digits + std::string(static_cast<size_t>(n - k), '0');
  if (0 < n && n <= 21) {
    const auto point = static_cast<size_t>(n);
    return digits.substr(0, point) + "." + digits.substr(point);
  }
  if (-6 < n && n <= 0) return "0." + std::string(static_cast<size_t>(-n), '0') + digits;
  const int exponent = n - 1;
  std::string out = digits.substr(0, 1);
  if (k > 1) out += "." + digits.substr(1);
  out += exponent < 0 ? "e-" : "e+";
  out += std::to_string(std::abs(exponent));
  return out;
}

std::string JsonQuote(std::string_view utf8) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char c : utf8) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (byte < 0x20) {
          out += "\\u00";
          out += kHex[byte >> 4];
          out += kHex[byte & 15];
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

}  // namespace higgins::testing
