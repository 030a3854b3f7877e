#pragma once

#include <string>
#include <string_view>

#include "higgins/arrow/array.h"
#include "higgins/status.h"

namespace higgins::arrow::json {

/// The one place where input text becomes typed Arrow values, for the JSON and CSV readers alike
/// (docs/json.md lists the rules per type). Each Append* call appends exactly one slot to
/// `builder` on success and nothing on error. Errors are InvalidArgument, or OutOfRange for a
/// value that does not fit, with the message "<what> (got <excerpt>)"; the readers prefix it with
/// "row R, field 'F': ". Nulls are the readers' business (they know the field's nullability).
///
/// Not thread-safe: holds a scratch buffer reused across calls so that no value allocates.
class ValueParser {
 public:
  /// A JSON number; `text` is its token (the JSON number grammar is checked here as well).
  Status AppendNumber(ArrayBuilder* builder, std::string_view text);

  /// A JSON string's contents, escapes already resolved.
  Status AppendString(ArrayBuilder* builder, std::string_view text);

  /// A JSON true or false.
  Status AppendBool(ArrayBuilder* builder, bool value);

  /// A non-null CSV field, quotes removed. Strings, binary and bool take the text as such (UTF-8
  /// checked for strings); every other type reads text in JSON number syntax as a number and any
  /// other text as that type's string form.
  Status AppendText(ArrayBuilder* builder, std::string_view text);

 private:
  Status AppendBase64(ArrayBuilder* builder, std::string_view text);

  std::string scratch_;
};

/// "<type tag> expects <the forms it accepts> (got <excerpt>)": the error for a JSON value
/// of a kind the type never accepts (an object for an int32, a number for a utf8, ...).
Status WrongKind(const DataType& type, std::string_view excerpt);

/// The value as it appears in error messages: at most ~40 bytes (cut at a character boundary,
/// then "..."), control characters and bytes of invalid UTF-8 replaced by '?'.
std::string Excerpt(std::string_view raw);

/// Excerpt() of `text` in double quotes: how a string value appears in error messages.
std::string QuotedExcerpt(std::string_view text);

/// Whether `text` is exactly one number in JSON syntax:
/// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
bool IsJsonNumber(std::string_view text);

}  // namespace higgins::arrow::json
