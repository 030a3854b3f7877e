#include "arrow/json/json_break.h"

#include <gtest/gtest.h>

namespace higgins::arrow::json {
namespace {

void ExpectBreak(std::string_view text, size_t offset, const std::string& what) {
  const std::optional<JsonBreak> found = FindJsonBreak(text);
  ASSERT_TRUE(found.has_value()) << text;
  EXPECT_EQ(found->offset, offset) << text;
  EXPECT_EQ(found->what, what) << text;
}

TEST(JsonBreakTest, WellBracketedTextHasNoBreak) {
  EXPECT_EQ(FindJsonBreak(R"({"a":[1,{"b":"}]"}]} {"c":"\"{"} [])"), std::nullopt);
  EXPECT_EQ(FindJsonBreak(""), std::nullopt);
}

TEST(JsonBreakTest, TruncatedObjectBreaksAtTheEnd) {
  ExpectBreak(R"({"id":"f","data":2)", 18, "the text ends inside an object");
  ExpectBreak(R"([{"v":1}, {"v":2})", 17, "the text ends inside an array");
}

TEST(JsonBreakTest, TruncatedStringBreaksAtTheEnd) {
  ExpectBreak(R"({"id":"ab)", 9, "the text ends inside a string");
  ExpectBreak(R"({"id":"a\")", 10, "the text ends inside a string");  // an escaped quote
}

TEST(JsonBreakTest, AStrayCloserBreaksWhereItIs) {
  ExpectBreak(R"({"n":1}})", 7, "'}' closes nothing");
  ExpectBreak(R"({"n":[1}})", 7, "'}' where ']' should close an array");
  ExpectBreak(R"([{"n":1]])", 7, "']' where '}' should close an object");
}

}  // namespace
}  // namespace higgins::arrow::json
