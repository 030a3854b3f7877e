#pragma once

#include <string>
#include <string_view>

namespace higgins::arrow::json {

/// Appends the RFC 4648 standard base64 encoding (alphabet A-Z a-z 0-9 + /, '=' padding to a
/// multiple of 4 characters) of `bytes` to `out`.
void Base64Encode(std::string_view bytes, std::string* out);

/// Decodes RFC 4648 standard base64 with padding into `out` (cleared first). Strict: the length
/// must be a multiple of 4, '=' may appear only as the last one or two characters, no whitespace
/// or other characters, and the unused bits of the last group must be zero (so every byte string
/// has exactly one accepted encoding). Returns false on any violation; `out` is then unspecified.
bool Base64Decode(std::string_view text, std::string* out);

}  // namespace higgins::arrow::json
