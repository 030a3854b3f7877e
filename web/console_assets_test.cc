#include "web/console_assets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace higgins::web {
namespace {

const std::filesystem::path kConsoleDir = std::filesystem::path(HIGGINS_SOURCE_DIR) / "web/console";

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

TEST(ConsoleAssetsTest, IndexIsHtml) {
  const Asset* index = FindConsoleAsset("/index.html");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->path, "/index.html");
  EXPECT_EQ(index->content_type, "text/html; charset=utf-8");
  EXPECT_TRUE(index->bytes.starts_with("<!doctype html>"));
}

TEST(ConsoleAssetsTest, RootIsTheIndex) {
  EXPECT_EQ(FindConsoleAsset("/"), FindConsoleAsset("/index.html"));
}

TEST(ConsoleAssetsTest, ScriptStyleAndIconTypes) {
  const Asset* script = FindConsoleAsset("/console.js");
  const Asset* style = FindConsoleAsset("/console.css");
  const Asset* icon = FindConsoleAsset("/favicon.svg");
  ASSERT_NE(script, nullptr);
  ASSERT_NE(style, nullptr);
  ASSERT_NE(icon, nullptr);
  EXPECT_EQ(script->content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(style->content_type, "text/css; charset=utf-8");
  EXPECT_EQ(icon->content_type, "image/svg+xml");
}

TEST(ConsoleAssetsTest, UnknownPathsAreNull) {
  for (std::string_view path :
       {"", "index.html", "/index", "/index.html/", "/INDEX.HTML", "/index.html?x=1",
        "/../index.html", "//index.html", "/console.js.map", "/v1/streams", "/console"}) {
    EXPECT_EQ(FindConsoleAsset(path), nullptr) << path;
  }
}

TEST(ConsoleAssetsTest, IndexNamesFilesThatExist) {
  const std::string_view index = FindConsoleAsset("/")->bytes;
  for (std::string_view file : {"console.js", "console.css", "favicon.svg"}) {
    EXPECT_NE(index.find(std::string("\"") + std::string(file) + "\""), std::string_view::npos)
        << file;
  }
}

TEST(ConsoleAssetsTest, BytesEqualTheFilesOnDisk) {
  std::set<std::string> on_disk;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kConsoleDir)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name.starts_with(".") || name.ends_with("~")) continue;
    on_disk.insert("/" + std::filesystem::relative(entry.path(), kConsoleDir).string());
  }
  std::set<std::string> embedded;
  for (const Asset* asset : ConsoleAssets()) {
    embedded.insert(std::string(asset->path));
    EXPECT_EQ(asset->bytes, ReadFile(kConsoleDir / asset->path.substr(1))) << asset->path;
    EXPECT_EQ(FindConsoleAsset(asset->path), asset) << asset->path;
  }
  EXPECT_EQ(embedded, on_disk);
}

TEST(ConsoleAssetsTest, AssetsAreSortedByPath) {
  const auto assets = ConsoleAssets();
  EXPECT_TRUE(std::is_sorted(assets.begin(), assets.end(),
                             [](const Asset* a, const Asset* b) { return a->path < b->path; }));
}

}  // namespace
}  // namespace higgins::web
