#include "tests/support/int128_text.h"

namespace higgins::testing {

std::optional<__int128> ParseInt128(std::string_view text) {
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  if (text.empty()) return std::nullopt;
  const unsigned __int128 limit = static_cast<unsigned __int128>(1) << 127;
  unsigned __int128 magnitude = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return std::nullopt;
    const auto digit = static_cast<unsigned>(ch - '0');
    if (magnitude > (limit - digit) / 10) return std::nullopt;
    magnitude = magnitude * 10 + digit;
  }
  if (!negative && magnitude == limit) return std::nullopt;
  // -2^127 is the one value whose magnitude does not fit: negating it wraps to itself.
  return negative ? static_cast<__int128>(0 - magnitude) : static_cast<__int128>(magnitude);
}

}  // namespace higgins::testing
