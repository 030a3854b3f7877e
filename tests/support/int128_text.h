#pragma once

#include <optional>
#include <string_view>

namespace higgins::testing {

/// Parses optional '-' then decimal digits into a signed 128-bit integer; nullopt for anything
/// else or a value outside [-2^127, 2^127 - 1]. (Test-side parser, deliberately independent of
/// arrow/decimal.h, which is code under test.)
std::optional<__int128> ParseInt128(std::string_view text);

}  // namespace higgins::testing
