#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace higgins::udf {

/// Most bytes of a module's own error text (get_errors) that go into an error message.
inline constexpr size_t kMaxGuestTextBytes = 1024;

/// Makes text read from a module's memory fit for a Status message (which may end up in logs
/// and in protobuf string fields, both of which need valid UTF-8 on one line): invalid UTF-8
/// becomes U+FFFD, control characters become spaces, surrounding spaces are trimmed, and "..."
/// is appended when `truncated` (the module's text was longer than what the caller read).
std::string SanitizeGuestText(std::string_view bytes, bool truncated);

}  // namespace higgins::udf
