#include "web/console_assets.h"

#include <algorithm>

namespace higgins::web {

const Asset* FindConsoleAsset(std::string_view path) {
  if (path == "/") path = "/index.html";
  const auto assets = ConsoleAssets();
  const auto it = std::lower_bound(
      assets.begin(), assets.end(), path,
      [](const Asset* asset, std::string_view wanted) { return asset->path < wanted; });
  return it != assets.end() && (*it)->path == path ? *it : nullptr;
}

}  // namespace higgins::web
