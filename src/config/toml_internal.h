#pragma once

// Private to src/config: the toml++ plumbing shared by schema_config.cc, configuration.cc and
// topography_toml.cc. Include only from .cc files of higgins_config, which are compiled with
// TOML_HEADER_ONLY=1 and TOML_ENABLE_UNRELEASED_FEATURES=1 (see CMakeLists.txt).

#include <toml++/toml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "higgins/result.h"
#include "config/configuration.h"
#include "config/schema_config.h"

namespace higgins::config::internal {

/// A key/value of a TOML table with where its value starts, to restore file order (toml::table
/// iterates its keys sorted).
struct Entry {
  std::string_view key;
  const toml::node* node;
  toml::source_position position;
};

/// The entries of `table` in the order they were written. Borrowed from `table`.
std::vector<Entry> InFileOrder(const toml::table& table);

/// Collects every problem of a configuration; each becomes one line of the final error,
/// "line L: <where>: <problem>" (without "line L: " for a node that has no source position).
class Problems {
 public:
  void Add(const toml::node& node, std::string_view where, std::string_view problem);

  bool empty() const { return lines_.empty(); }

  /// InvalidArgument with one problem per line: in the order they were added, or (when
  /// `by_line`) stably sorted by line number.
  Status ToStatus(bool by_line = false) const;

 private:
  struct Line {
    int64_t line;
    std::string text;
  };
  std::vector<Line> lines_;
};

/// " (got 'text')" or " (got 12)" for a string or integer node, to end a problem; "" for other
/// values.
std::string Got(const toml::node& node);

/// Who wrote the text: a user (every limit of CheckTomlLimits applies) or Higgins itself (the
/// serialized topography: only the key-nesting limit, see CheckTomlKeyDepth).
enum class TextOrigin { kUser, kSelf };

/// Checks the limits, then parses. Errors: those of CheckTomlLimits / CheckTomlKeyDepth;
/// InvalidArgument "TOML syntax error at line L, column C: <description>". No exception leaves.
Result<toml::table> ParseToml(std::string_view text, TextOrigin origin);

/// Every valid `[schema.<name>]` block of `root` in file order; the problems of the others are
/// added to `problems` (schema_config.h describes them). Defined in schema_config.cc.
std::vector<NamedSchema> ReadSchemas(const toml::table& root, Problems* problems);

/// A stream's `window = { type, interval, slide }` (docs/configuration.md, "Derived streams");
/// nullopt after adding its problems, each as "<where>: <problem>". Defined in window_config.cc.
std::optional<WindowSpec> ReadWindow(const toml::node& node, const std::string& where,
                                     Problems* problems);

/// The storages, schemas and streams of `root` (ParseConfiguration's rules); problems are
/// added to `problems`, and the result is meaningful only when there are none. The top-level
/// table `[topography]` is accepted (and left to the caller) only when `allow_topography`.
/// Defined in configuration.cc.
Configuration ReadConfiguration(const toml::table& root, bool allow_topography, Problems* problems);

}  // namespace higgins::config::internal
