#include "common/nearest_word.h"

#include <gtest/gtest.h>

#include <array>

namespace higgins {
namespace {

constexpr std::array<std::string_view, 5> kTags = {"int8", "int16", "int32", "int64", "string"};

TEST(EditDistanceTest, CountsInsertionsDeletionsSubstitutionsAndSwaps) {
  EXPECT_EQ(EditDistance("", ""), 0u);
  EXPECT_EQ(EditDistance("int32", "int32"), 0u);
  EXPECT_EQ(EditDistance("int23", "int32"), 1u);  // two adjacent bytes swapped
  EXPECT_EQ(EditDistance("int23", "int8"), 2u);
  EXPECT_EQ(EditDistance("ca", "abc"), 3u);  // no byte edited twice
  EXPECT_EQ(EditDistance("strng", "string"), 1u);
  EXPECT_EQ(EditDistance("strings", "string"), 1u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
}

TEST(NearestWordTest, ASwappedPairOfDigitsFindsTheTag) {
  EXPECT_EQ(NearestWord("int23", kTags), "int32");
  EXPECT_EQ(NearestWord("int46", kTags), "int16");  // a tie with int64: the first candidate
  EXPECT_EQ(NearestWord("strin", kTags), "string");
}

TEST(NearestWordTest, NothingNearEnoughIsNoSuggestion) {
  EXPECT_EQ(NearestWord("varchar", kTags), std::nullopt);
  EXPECT_EQ(NearestWord("int8", kTags), std::nullopt);  // a candidate itself
  EXPECT_EQ(NearestWord("x", kTags), std::nullopt);     // shorter than any distance
  EXPECT_EQ(NearestWord("int32", std::span<const std::string_view>()), std::nullopt);
}

}  // namespace
}  // namespace higgins
