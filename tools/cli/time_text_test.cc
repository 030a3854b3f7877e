#include "time_text.h"

#include <gtest/gtest.h>

namespace higgins::cli {
namespace {

TEST(TimeText, DigitsAreMillisecondsSinceTheEpoch) {
  EXPECT_EQ(*ParseTimeArgument("0"), 0u);
  EXPECT_EQ(*ParseTimeArgument("1795953600000"), 1795953600000u);
  EXPECT_EQ(*ParseTimeArgument("9223372036854775807"), 9223372036854775807u);
}

TEST(TimeText, IsoUtcTime) {
  EXPECT_EQ(*ParseTimeArgument("2026-11-29T12:00:00Z"), 1795953600000u);
  EXPECT_EQ(*ParseTimeArgument("1970-01-01T00:00:00Z"), 0u);
  EXPECT_EQ(*ParseTimeArgument("1970-01-02"), 86400000u);
}

TEST(TimeText, FractionalSecondsUpToMilliseconds) {
  EXPECT_EQ(*ParseTimeArgument("2026-11-29T12:00:00.25Z"), 1795953600250u);
  EXPECT_EQ(*ParseTimeArgument("2026-11-29T12:00:00.123Z"), 1795953600123u);
  EXPECT_EQ(*ParseTimeArgument("2026-11-29T12:00:00.123000Z"), 1795953600123u);
}

TEST(TimeText, OffsetIsApplied) {
  EXPECT_EQ(*ParseTimeArgument("2026-11-29T13:00:00+01:00"), 1795953600000u);
}

TEST(TimeText, NoOffsetMeansUtc) {
  EXPECT_EQ(*ParseTimeArgument("2026-11-29T12:00:00"), 1795953600000u);
}

TEST(TimeText, SubMillisecondDigitsAreRefused) {
  auto parsed = ParseTimeArgument("2026-11-29T12:00:00.1234Z");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
}

TEST(TimeText, GarbageNamesTheAcceptedForms) {
  for (const char* text : {"", "yesterday", "2026-13-01T00:00:00Z", "-5x", "12:00"}) {
    auto parsed = ParseTimeArgument(text);
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_NE(parsed.status().message().find("ISO 8601"), std::string::npos)
        << parsed.status().message();
  }
}

TEST(TimeText, BeforeTheEpochIsOutOfRange) {
  auto parsed = ParseTimeArgument("1969-12-31T23:59:59Z");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), StatusCode::kOutOfRange);
}

TEST(TimeText, TooManyDigitsIsOutOfRange) {
  auto parsed = ParseTimeArgument("18446744073709551616");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), StatusCode::kOutOfRange);
}

TEST(TimeText, PastTheLargestTimestampIsOutOfRange) {
  EXPECT_EQ(*ParseTimeArgument("9223372036854775807"), 9223372036854775807ull);
  for (const char* text : {"9223372036854775808", "99999999999999999999"}) {
    auto parsed = ParseTimeArgument(text);
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_NE(parsed.status().message().find("beyond the largest timestamp"), std::string::npos);
  }
}

TEST(TimeText, NegativeMillisecondsAreBeforeTheEpoch) {
  auto parsed = ParseTimeArgument("-1");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("before the Unix epoch"), std::string::npos);
}

TEST(TimeText, FormatsUtcWithMilliseconds) {
  EXPECT_EQ(FormatTimestampMs(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(FormatTimestampMs(1795953600250), "2026-11-29T12:00:00.250Z");
}

TEST(TimeText, FormatRoundTrips) {
  for (uint64_t ms : {0ull, 1ull, 999ull, 1795953600250ull, 253402300799999ull}) {
    EXPECT_EQ(*ParseTimeArgument(FormatTimestampMs(ms)), ms);
  }
}

TEST(TimeText, YearsPastNineThousandNineHundredNinetyNineArePlainNumbers) {
  EXPECT_EQ(FormatTimestampMs(253402300800000), "253402300800000");
}

}  // namespace
}  // namespace higgins::cli
