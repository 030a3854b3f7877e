#pragma once

#include <string_view>

namespace higgins::arrow::json {

/// JSON's insignificant white space (RFC 8259): space, tab, LF, CR.
inline bool IsJsonSpace(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/// A scalar's token: simdjson's raw token runs to the next structural character, so it may
/// carry whitespace and, in malformed input, more; the value ends at the first whitespace.
inline std::string_view ScalarToken(std::string_view raw) {
  size_t end = 0;
  while (end < raw.size() && !IsJsonSpace(raw[end])) ++end;
  return raw.substr(0, end);
}

}  // namespace higgins::arrow::json
