#pragma once

// Where JSON text stops being well-bracketed, for error messages that point at the byte where
// the text breaks rather than where its value began. Pure.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace higgins::arrow::json {

struct JsonBreak {
  /// The byte of `text` where the structure breaks; text.size() when the text ends too soon.
  size_t offset = 0;
  /// What is wrong there, without byte numbers: `the text ends inside an object`,
  /// `the text ends inside a string`, `'}' closes nothing`, `']' where '}' should close an
  /// object`.
  std::string what;
};

/// Follows the strings (with their escapes) and brackets of `text`, one or more JSON values
/// separated by anything, and returns the first point where they do not pair up: a `}` or `]`
/// with nothing open or closing the other kind, or the end of the text inside a string, an
/// object or an array. nullopt when every string and bracket closes. Scalars are not checked.
std::optional<JsonBreak> FindJsonBreak(std::string_view text);

}  // namespace higgins::arrow::json
