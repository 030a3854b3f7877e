#include "auth/claims.h"

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace higgins::auth {
namespace {

constexpr int64_t kNow = 1700000000;  // 2023-11-14T22:13:20Z

struct ClaimsCase {
  std::string name;
  std::string payload;
  std::optional<Claims> expected;  // nullopt: an error containing `error`
  std::string error;
};

std::ostream& operator<<(std::ostream& out, const ClaimsCase& c) {
  return out << c.name;
}

Claims Make(Mode mode, std::vector<std::string> channels, std::optional<int64_t> exp = {}) {
  return Claims{mode, std::move(channels), exp};
}

class ParseClaimsTest : public ::testing::TestWithParam<ClaimsCase> {};

TEST_P(ParseClaimsTest, Case) {
  const ClaimsCase& c = GetParam();
  Result<Claims> claims = ParseClaims(c.payload, kNow);
  if (c.expected) {
    ASSERT_TRUE(claims.ok()) << claims.status().ToString();
    EXPECT_EQ(*claims, *c.expected);
  } else {
    ASSERT_FALSE(claims.ok());
    EXPECT_EQ(claims.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(claims.status().message().find(c.error), std::string::npos)
        << claims.status().message();
  }
}

const std::vector<ClaimsCase> kCases = {
    {"ModeR", R"({"mode":"r","channel":"a"})", Make(Mode::kRead, {"a"}), ""},
    {"ModeW", R"({"mode":"w","channel":"a"})", Make(Mode::kWrite, {"a"}), ""},
    {"ModeRw", R"({"mode":"rw","channel":"a"})", Make(Mode::kReadWrite, {"a"}), ""},
    {"ModeMissing", R"({"channel":"a"})", {}, "no \"mode\" claim"},
    {"ModeX", R"({"mode":"x","channel":"a"})", {}, "\"mode\" claim is not \"r\", \"w\" or \"rw\""},
    {"ModeWr", R"({"mode":"wr","channel":"a"})", {}, "\"mode\" claim is not"},
    {"ModeUppercase", R"({"mode":"R","channel":"a"})", {}, "\"mode\" claim is not"},
    {"ModeNumber", R"({"mode":1,"channel":"a"})", {}, "\"mode\" claim is not"},
    {"ModeNull", R"({"mode":null,"channel":"a"})", {}, "\"mode\" claim is not"},
    {"Channels", R"({"mode":"r","channels":["a","b"]})", Make(Mode::kRead, {"a", "b"}), ""},
    {"ChannelAndChannelsMerged", R"({"mode":"r","channel":"c","channels":["a","c","b","a"]})",
     Make(Mode::kRead, {"c", "a", "b"}), ""},
    {"EveryChannel", R"({"mode":"r","channel":"*"})", Make(Mode::kRead, {"*"}), ""},
    {"NoChannel", R"({"mode":"r"})", {}, "neither a \"channel\" nor a \"channels\" claim"},
    {"ChannelEmpty", R"({"mode":"r","channel":""})", {}, "\"channel\" claim is not a non-empty"},
    {"ChannelNotString", R"({"mode":"r","channel":["a"]})", {}, "\"channel\" claim is not"},
    {"ChannelsEmpty", R"({"mode":"r","channels":[]})", {}, "\"channels\" claim is not"},
    {"ChannelsString", R"({"mode":"r","channels":"a"})", {}, "\"channels\" claim is not"},
    {"ChannelsWithNumber", R"({"mode":"r","channels":["a",1]})", {}, "\"channels\" claim"},
    {"ChannelsWithEmpty", R"({"mode":"r","channels":["a",""]})", {}, "\"channels\" claim"},
    {"ExpInTheFuture", R"({"mode":"r","channel":"a","exp":1700000001})",
     Make(Mode::kRead, {"a"}, 1700000001), ""},
    {"ExpNow",
     R"({"mode":"r","channel":"a","exp":1700000000})",
     {},
     "token expired at 2023-11-14T22:13:20Z"},
    {"ExpPast",
     R"({"mode":"r","channel":"a","exp":0})",
     {},
     "token expired at 1970-01-01T00:00:00Z"},
    {"ExpFractionRoundedUp", R"({"mode":"r","channel":"a","exp":1700000000.25})",
     Make(Mode::kRead, {"a"}, 1700000001), ""},
    {"ExpHuge", R"({"mode":"r","channel":"a","exp":1e300})",
     Make(Mode::kRead, {"a"}, std::numeric_limits<int64_t>::max()), ""},
    {"ExpAboveInt64", R"({"mode":"r","channel":"a","exp":18446744073709551615})",
     Make(Mode::kRead, {"a"}, std::numeric_limits<int64_t>::max()), ""},
    {"ExpVeryNegative",
     R"({"mode":"r","channel":"a","exp":-1e300})",
     {},
     "expired at -9223372036854775808 s since the Unix epoch"},
    {"ExpString",
     R"({"mode":"r","channel":"a","exp":"1800000000"})",
     {},
     "\"exp\" claim is not a number"},
    {"ExpCheckedBeforeMode", R"({"exp":1})", {}, "token expired at 1970-01-01T00:00:01Z"},
    {"NbfNow", R"({"mode":"r","channel":"a","nbf":1700000000})", Make(Mode::kRead, {"a"}), ""},
    {"NbfFuture",
     R"({"mode":"r","channel":"a","nbf":1700000060})",
     {},
     "token is not valid before 2023-11-14T22:14:20Z"},
    {"NbfFractionRoundedUp", R"({"mode":"r","channel":"a","nbf":1699999999.5})",
     Make(Mode::kRead, {"a"}), ""},
    {"NbfBool", R"({"mode":"r","channel":"a","nbf":true})", {}, "\"nbf\" claim is not a number"},
    {"OtherClaimsIgnored", R"({"mode":"w","channel":"a","sub":"x","iat":1,"aud":["y"]})",
     Make(Mode::kWrite, {"a"}), ""},
    {"DuplicateMode",
     R"({"mode":"r","mode":"rw","channel":"a"})",
     {},
     "\"mode\" claim appears twice"},
    {"NotAnObject", R"(["mode","r"])", {}, "payload is not a JSON object"},
    {"NotJson", R"({"mode":"r",)", {}, "payload is not a JSON object"},
    {"Empty", "", {}, "payload is not a JSON object"},
};

INSTANTIATE_TEST_SUITE_P(Payloads, ParseClaimsTest, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return info.param.name; });

TEST(ClaimsTest, ReadOnlyTokenMayReadItsChannelsOnly) {
  const Claims claims = Make(Mode::kRead, {"a", "b"});
  EXPECT_TRUE(claims.MayRead("a"));
  EXPECT_TRUE(claims.MayRead("b"));
  EXPECT_FALSE(claims.MayRead("c"));
  EXPECT_FALSE(claims.MayRead("*"));
  EXPECT_FALSE(claims.MayRead(""));
  EXPECT_FALSE(claims.MayWrite("a"));
  EXPECT_FALSE(claims.MayReadEverything());
  EXPECT_FALSE(claims.MayWriteEverything());
}

TEST(ClaimsTest, WriteOnlyTokenMayWriteItsChannelsOnly) {
  const Claims claims = Make(Mode::kWrite, {"a"});
  EXPECT_TRUE(claims.MayWrite("a"));
  EXPECT_FALSE(claims.MayWrite("ab"));
  EXPECT_FALSE(claims.MayRead("a"));
}

TEST(ClaimsTest, EveryChannelCoversEveryStream) {
  const Claims read_write = Make(Mode::kReadWrite, {"a", "*"});
  EXPECT_TRUE(read_write.MayRead("anything"));
  EXPECT_TRUE(read_write.MayWrite("anything"));
  EXPECT_TRUE(read_write.MayReadEverything());
  EXPECT_TRUE(read_write.MayWriteEverything());
  const Claims read = Make(Mode::kRead, {"*"});
  EXPECT_TRUE(read.MayReadEverything());
  EXPECT_FALSE(read.MayWriteEverything());
  EXPECT_FALSE(read.MayWrite("anything"));
}

TEST(ClaimsTest, ChannelNamesAreComparedExactly) {
  const Claims claims = Make(Mode::kReadWrite, {"Flights"});
  EXPECT_FALSE(claims.MayRead("flights"));
  EXPECT_FALSE(claims.MayRead("Flights "));
  EXPECT_TRUE(claims.MayRead("Flights"));
}

TEST(FormatUnixTimeTest, Rfc3339InUtc) {
  EXPECT_EQ(FormatUnixTime(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(FormatUnixTime(kNow), "2023-11-14T22:13:20Z");
  EXPECT_EQ(FormatUnixTime(-1), "1969-12-31T23:59:59Z");
  EXPECT_EQ(FormatUnixTime(951782400), "2000-02-29T00:00:00Z");
  EXPECT_EQ(FormatUnixTime(253402300799), "9999-12-31T23:59:59Z");
  EXPECT_EQ(FormatUnixTime(-62167219200), "0000-01-01T00:00:00Z");
}

TEST(FormatUnixTimeTest, OutsideYearsZeroTo9999InSeconds) {
  EXPECT_EQ(FormatUnixTime(253402300800), "253402300800 s since the Unix epoch");
  EXPECT_EQ(FormatUnixTime(-62167219201), "-62167219201 s since the Unix epoch");
}

}  // namespace
}  // namespace higgins::auth
