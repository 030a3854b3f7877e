#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace higgins::arrow {

/// True when `bytes` is well-formed UTF-8 per RFC 3629 (no overlongs, no surrogates,
/// nothing above U+10FFFF).
bool IsValidUtf8(std::string_view bytes);

}  // namespace higgins::arrow
