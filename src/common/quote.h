#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace higgins {

/// Bytes of a quoted text kept by Quote: a key or name longer than this is cut.
inline constexpr size_t kQuotePrefixBytes = 64;

/// `text` in single quotes, for error messages that name a client's key or name: whole when at
/// most kQuotePrefixBytes long (`'k'`), otherwise its first kQuotePrefixBytes bytes (fewer when
/// that would cut a UTF-8 character) then its full length: `'aaaa'…(1500 bytes)`. An error
/// text therefore stays small whatever the client sent, and fits the reply that carries it.
std::string Quote(std::string_view text);

}  // namespace higgins
