#include "arrow/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace higgins::arrow {
namespace {

TEST(Utf8Test, AcceptsWellFormed) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain ascii that is longer than eight bytes"));
  EXPECT_TRUE(IsValidUtf8("caf\xC3\xA9"));
  EXPECT_TRUE(IsValidUtf8("\xE2\x82\xAC euro"));
  EXPECT_TRUE(IsValidUtf8("\xF0\x9F\x98\x80"));
  EXPECT_TRUE(IsValidUtf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF
}

TEST(Utf8Test, RejectsMalformed) {
  const std::string bad[] = {
      "\x80",              // stray continuation
      "\xC3",              // truncated
      "\xC0\xAF",          // overlong '/'
      "\xE0\x80\xAF",      // overlong
      "\xED\xA0\x80",      // surrogate U+D800
      "\xF4\x90\x80\x80",  // above U+10FFFF
      "\xFF",
      "abcdefgh\xC3(",     // bad continuation after the ASCII fast path
  };
  for (const std::string& s : bad) EXPECT_FALSE(IsValidUtf8(s)) << s;
}

}  // namespace
}  // namespace higgins::arrow
