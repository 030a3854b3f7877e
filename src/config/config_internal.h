#pragma once

// Private to src/config: facts about the configuration language shared by the parser
// (configuration.cc), the topography (topography.cc) and its TOML writer (topography_toml.cc).

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/configuration.h"

namespace higgins::config::internal {

/// `text` in single quotes, as messages name things: 'x'.
std::string Quoted(std::string_view text);
/// Names quoted and separated by ", ": 'a', 'b'.
std::string QuotedList(const std::vector<std::string>& names);

/// Storage, schema and stream names: 1..255 bytes of [A-Za-z0-9_.-].
bool IsValidName(std::string_view name);
inline constexpr std::string_view kNameRule = "1 to 255 bytes of A-Z a-z 0-9 _ . -";

/// Why `name` cannot name a schema field, "" when it can: a field name is at least one byte and
/// holds no control character (U+0000 to U+001F, U+007F), which tables, JSON keys and error
/// messages could not show as written. The problem names the field as a TOML string.
std::string FieldNameProblem(std::string_view name);

/// `key` as a TOML key: bare when it is one of [A-Za-z0-9_-]+, quoted otherwise.
std::string TomlKey(std::string_view key);
/// `value` as a TOML basic string, quotes included.
std::string TomlString(std::string_view value);
/// A window as its TOML inline table, e.g. `{ type = "time", interval = "10s" }`.
std::string WindowToToml(const WindowSpec& window);
/// A join map as its TOML inline table, e.g. `{ out = "a.x", b = "b.y" }`.
std::string MapToToml(const std::vector<JoinField>& map);
/// A list of names as a TOML array, e.g. `["a", "b"]`.
std::string JoinToToml(const std::vector<std::string>& names);

}  // namespace higgins::config::internal
