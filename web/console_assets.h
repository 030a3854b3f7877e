#pragma once

// The web console's files (web/console/), compiled into the broker: the HTTP listener serves
// them at `/` (web/README.md). Every Asset is a constant of static storage: its views stay valid
// for the life of the program, and lookups are safe from any thread.

#include <span>
#include <string_view>

namespace higgins::web {

struct Asset {
  std::string_view path;          // as requested, "/index.html"
  std::string_view content_type;  // "text/html; charset=utf-8", from the file's extension
  std::string_view bytes;         // the file as it was at build time
};

/// The console file served at `path` ("/" is "/index.html"); nullptr when there is none.
/// `path` is the request target's path: no query string, not percent-decoded; matching is exact
/// and case-sensitive.
const Asset* FindConsoleAsset(std::string_view path);

/// Every console file, sorted by path.
std::span<const Asset* const> ConsoleAssets();

}  // namespace higgins::web
