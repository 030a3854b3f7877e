#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "higgins/result.h"

namespace higgins::server::http {

/// A request target (RFC 9112 origin-form, "/path/to?query") split into its percent-decoded
/// path segments and query parameters (RFC 3986; '+' in the query is a space, as HTML forms
/// write it). "/v1/streams/a%2Fb" has the segments "v1", "streams", "a/b".
struct RequestTarget {
  std::vector<std::string> segments;
  std::vector<std::pair<std::string, std::string>> query;  // in order; "flag" has value ""

  /// The first parameter named `name`, or nullopt.
  std::optional<std::string_view> Param(std::string_view name) const;
};

/// Errors: InvalidArgument for a target not starting with '/', a bad percent escape, a
/// decoded NUL byte or invalid UTF-8 in a segment or parameter.
Result<RequestTarget> ParseTarget(std::string_view target);

}  // namespace higgins::server::http
