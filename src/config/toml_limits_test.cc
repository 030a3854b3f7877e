#include "config/toml_limits.h"

#include <gtest/gtest.h>

#include <string>

namespace higgins::config {
namespace {

/// `n` segments joined by dots: "a.a.a".
std::string Path(int n) {
  std::string path = "a";
  for (int i = 1; i < n; ++i) path += ".a";
  return path;
}

std::string ErrorOf(std::string_view toml) {
  Status status = CheckTomlLimits(toml);
  return status.ok() ? "OK" : status.ToString();
}

std::string TooDeep(int line, std::string_view what) {
  return "InvalidArgument: line " + std::to_string(line) + ": " + std::string(what) +
         " nested more than 64 levels deep (counting the segments of the table header, of "
         "enclosing inline-table keys and of the dotted key)";
}

TEST(TomlLimitsTest, OversizedConfigurationIsResourceExhausted) {
  const std::string at_limit = "#" + std::string(kMaxConfigBytes - 1, 'x');
  EXPECT_EQ(ErrorOf(at_limit), "OK");
  EXPECT_EQ(ErrorOf(at_limit + "\n"),
            "ResourceExhausted: configuration is 1048577 bytes, more than the limit of 1048576 "
            "(1 MiB)");
}

TEST(TomlLimitsTest, DeepTableHeaderIsRejectedWithItsLine) {
  // The shape of a header that overflowed toml++'s stack: 150,000 segments.
  EXPECT_EQ(ErrorOf("[" + Path(150'000) + "]\nb = 1\n"), TooDeep(1, "table header"));
  EXPECT_EQ(ErrorOf("x = 1\n\n[[" + Path(65) + "]]\n"), TooDeep(3, "table header"));
  EXPECT_EQ(ErrorOf("[" + Path(64) + "]\n[[" + Path(64) + "]]\n"), "OK");
}

TEST(TomlLimitsTest, DeepDottedKeyIsRejectedWithItsLine) {
  EXPECT_EQ(ErrorOf("[schema.x]\n" + Path(150'000) + ".b = \"int8\"\n"), TooDeep(2, "key"));
  EXPECT_EQ(ErrorOf(Path(65) + " = 1\n"), TooDeep(1, "key"));
  EXPECT_EQ(ErrorOf(Path(64) + " = 1\n"), "OK");
  EXPECT_EQ(ErrorOf(Path(30) + " . \"q\" . 'r' . " + Path(32) + " = 1\n"), "OK");
  EXPECT_EQ(ErrorOf(Path(30) + " . \"q\" . 'r' . " + Path(33) + " = 1\n"), TooDeep(1, "key"));
}

TEST(TomlLimitsTest, HeaderInlineTablesAndDottedKeysAddUp) {
  // [60 segments] then a 4-segment key: 64. One more segment anywhere is too deep.
  EXPECT_EQ(ErrorOf("[" + Path(60) + "]\nb.c.d.e = 1\n"), "OK");
  EXPECT_EQ(ErrorOf("[" + Path(60) + "]\nb.c.d.e.f = 1\n"), TooDeep(2, "key"));
  EXPECT_EQ(ErrorOf("[" + Path(60) + "]\nb = { c.d = { e = 1 } }\n"), "OK");
  EXPECT_EQ(ErrorOf("[" + Path(60) + "]\nb = { c = 1, d.e = { f = 1, g.h = 2 } }\n"),
            TooDeep(2, "key"));
  // Arrays do not count, the inline tables in them do (TOML 1.1: across lines).
  EXPECT_EQ(ErrorOf("[" + Path(62) + "]\nb = [[{ c = [1.5, { d = 2 }] }], 3]\n"),
            TooDeep(2, "key"));
  EXPECT_EQ(ErrorOf("[" + Path(61) + "]\nb = [[{ c = [1.5, { d = 2 }] }], 3]\n"), "OK");
  EXPECT_EQ(
      ErrorOf("[" + Path(62) + "]\nb = [\n  { c = {},\n    d = 1 },\n  { e = { f = 1 } }\n]\n"),
      TooDeep(5, "key"));
  // A new header replaces the old one's depth.
  EXPECT_EQ(ErrorOf("[" + Path(63) + "]\n[b]\n" + Path(63) + " = 1\n"), "OK");
}

TEST(TomlLimitsTest, DotsInStringsValuesAndCommentsDoNotCount) {
  const std::string dots(200, '.');
  const std::string toml = "\"" + dots +
                           "\" = 1\n"  // quoted keys
                           "'" +
                           dots +
                           "' = 1\n"
                           "k = \"" +
                           dots + "\\\"" + dots +
                           "\"\n"  // escaped quote
                           "l = '" +
                           dots +
                           "'\n"
                           "f = [1.5, 2.5, 1979-05-27T07:32:00.999, 3.25e-1]  # " +
                           dots +
                           "\n"
                           "m = \"\"\"\n[" +
                           Path(100) + "]\n" + Path(100) +
                           " = 1 \\\"\"\"\n"
                           "\"\"\"\n"
                           "n = '''\n[" +
                           Path(100) +
                           "]\n''''\n"                // ends with '
                           "o = \"\"\"x\"\"\"\"\"\n"  // ends with ""
                           "# " +
                           Path(100) +
                           "\n"
                           "[\"" +
                           dots + "\".'" + dots + "']  # " + dots +
                           "\n"
                           "p = { \"" +
                           dots + "\" = \"" + dots + "\" }\n";
  EXPECT_EQ(ErrorOf(toml), "OK");
  // Lines inside multi-line strings are counted.
  EXPECT_EQ(ErrorOf(toml + Path(65) + " = 1\n"), TooDeep(17, "key"));
}

TEST(TomlLimitsTest, MalformedTextIsLeftToTheParser) {
  for (std::string_view toml : {"a = \"unterminated\n", "a = '''never closed", "[a.b\nc = 1\n",
                                "a = { b = 1\n", "a = ]]]}}}\n", "= = =\n", "[[[\n", "a.\n"}) {
    EXPECT_EQ(ErrorOf(toml), "OK") << toml;
  }
}

}  // namespace
}  // namespace higgins::config
