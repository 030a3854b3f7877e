#pragma once

#include <optional>
#include <string>
#include <string_view>

/// Base64url (RFC 4648 §5) without padding, the encoding of the three parts of a JWS compact
/// serialisation (RFC 7515 §2). Internal to src/auth. Pure functions, thread-safe.
namespace higgins::auth {

/// True when every byte of `text` is one of A-Z a-z 0-9 - _ (the empty text included).
bool IsBase64UrlAlphabet(std::string_view text);

/// `bytes` in base64url, unpadded.
std::string Base64UrlEncode(std::string_view bytes);

/// The bytes `text` encodes, or nullopt when `text` holds a byte outside the alphabet (padding
/// `=` included) or has a length that no encoding has (4n + 1).
std::optional<std::string> Base64UrlDecode(std::string_view text);

}  // namespace higgins::auth
