#include "common/quote.h"

#include <gtest/gtest.h>

namespace higgins {
namespace {

TEST(QuoteTest, ShortTextIsQuotedWhole) {
  EXPECT_EQ(Quote("k"), "'k'");
  EXPECT_EQ(Quote(""), "''");
  EXPECT_EQ(Quote(std::string(64, 'a')), "'" + std::string(64, 'a') + "'");
}

TEST(QuoteTest, LongTextKeepsItsFirst64BytesAndItsLength) {
  EXPECT_EQ(Quote(std::string(65, 'a')), "'" + std::string(64, 'a') + "'…(65 bytes)");
  EXPECT_EQ(Quote(std::string(4096, 'k')), "'" + std::string(64, 'k') + "'…(4096 bytes)");
}

TEST(QuoteTest, CutNeverSplitsAUtf8Character) {
  // 63 ASCII bytes, then "é" (2 bytes) at bytes 63-64: the cut at 64 would split it.
  const std::string two = std::string(63, 'a') + "\xC3\xA9" + "zz";
  EXPECT_EQ(Quote(two), "'" + std::string(63, 'a') + "'…(67 bytes)");
  // 62 ASCII bytes, then "€" (3 bytes) at bytes 62-64.
  const std::string three = std::string(62, 'a') + "\xE2\x82\xAC" + "z";
  EXPECT_EQ(Quote(three), "'" + std::string(62, 'a') + "'…(66 bytes)");
  // A character that ends exactly at byte 64 is kept.
  const std::string whole = std::string(62, 'a') + "\xC3\xA9" + "z";
  EXPECT_EQ(Quote(whole), "'" + std::string(62, 'a') + "\xC3\xA9'…(65 bytes)");
}

TEST(QuoteTest, InvalidUtf8IsCutAtMostThreeBytesEarly) {
  // Continuation bytes with no lead byte: the cut backs up 3 bytes and stops.
  const std::string bad = std::string(60, 'a') + std::string(10, '\x80');
  EXPECT_EQ(Quote(bad), "'" + std::string(60, 'a') + std::string(1, '\x80') + "'…(70 bytes)");
}

}  // namespace
}  // namespace higgins
