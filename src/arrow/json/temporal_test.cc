#include "arrow/json/temporal.h"

#include <gtest/gtest.h>

namespace higgins::arrow::json {
namespace {

int64_t Ts(std::string_view text, TimeUnit unit = TimeUnit::kMilli) {
  Result<int64_t> value = ParseTimestamp(text, unit);
  EXPECT_TRUE(value.ok()) << text << ": " << value.status().ToString();
  return value.ok() ? *value : -1;
}

std::string FormatTs(int64_t value, TimeUnit unit) {
  std::string out;
  EXPECT_TRUE(FormatTimestamp(value, unit, &out));
  return out;
}

TEST(TemporalTest, Dates) {
  EXPECT_EQ(*ParseDate32("1970-01-01"), 0);
  EXPECT_EQ(*ParseDate32("2000-02-29"), 11016);
  EXPECT_EQ(*ParseDate32("1969-12-31"), -1);
  EXPECT_EQ(*ParseDate32("0000-01-01"), -719528);
  EXPECT_EQ(*ParseDate32("9999-12-31"), 2932896);
  for (std::string_view bad : {"2001-02-29", "2024-13-01", "2024-1-01", "24-01-01", "2024/01/01",
                               "2024-01-01T00:00", " 2024-01-01", ""}) {
    Result<int32_t> days = ParseDate32(bad);
    ASSERT_FALSE(days.ok()) << bad;
    EXPECT_EQ(days.status().message(), "not a date (YYYY-MM-DD)");
  }
}

TEST(TemporalTest, TimestampsWithOffsets) {
  EXPECT_EQ(Ts("2024-01-02T03:04:05.123Z"), 1704164645123);
  EXPECT_EQ(Ts("2024-01-02T05:04:05.123+02:00"), 1704164645123);
  EXPECT_EQ(Ts("2024-01-01T22:04:05.123-05:00"), 1704164645123);
  EXPECT_EQ(Ts("2024-01-02T05:04:05.123+0200"), 1704164645123);
  EXPECT_EQ(Ts("2024-01-02T05:04:05.123+02"), 1704164645123);
  EXPECT_EQ(Ts("2024-01-02 03:04:05.123"), 1704164645123);  // no offset: UTC
  EXPECT_EQ(Ts("2024-01-02t03:04:05.123z"), 1704164645123);
  EXPECT_EQ(Ts("2024-01-02T03:04Z"), 1704164640000);
  EXPECT_EQ(Ts("2024-01-02"), 1704153600000);
  EXPECT_EQ(Ts("1969-12-31T23:59:59.999Z"), -1);
  EXPECT_EQ(Ts("2024-01-02T03:04:05.123456789Z", TimeUnit::kNano), 1704164645123456789);
  EXPECT_EQ(Ts("2024-01-02T03:04:05.1Z", TimeUnit::kMicro), 1704164645100000);
  EXPECT_EQ(Ts("2024-01-02T03:04:05.5000Z", TimeUnit::kMilli), 1704164645500);
}

TEST(TemporalTest, BadTimestamps) {
  for (std::string_view bad :
       {"2024-01-02T03:04:05.", "2024-01-02T3:04:05Z", "2024-01-02T03:04:05Zx",
        "2024-01-02X03:04:05", "2024-01-02T03:04:05+2", "2024-01-02T", "2024-01-02T03:04:05+24:00",
        "1704164645123"}) {
    Result<int64_t> value = ParseTimestamp(bad, TimeUnit::kMilli);
    ASSERT_FALSE(value.ok()) << bad;
    EXPECT_EQ(value.status().message(), "not an ISO 8601 date-time") << bad;
  }
  EXPECT_EQ(ParseTimestamp("2024-01-02T24:00:00Z", TimeUnit::kMilli).status().message(),
            "not an ISO 8601 date-time: hour, minute or second out of range");
  EXPECT_EQ(ParseTimestamp("2024-01-02T00:00:00.1234Z", TimeUnit::kMilli).status().message(),
            "more fractional digits than the unit (ms) holds");
  EXPECT_EQ(ParseTimestamp("2300-01-01T00:00:00Z", TimeUnit::kNano).status().code(),
            StatusCode::kOutOfRange);
}

TEST(TemporalTest, TimesOfDay) {
  EXPECT_EQ(*ParseTimeOfDay("00:00:00", TimeUnit::kSecond), 0);
  EXPECT_EQ(*ParseTimeOfDay("23:59:59", TimeUnit::kSecond), 86399);
  EXPECT_EQ(*ParseTimeOfDay("12:30:15.25", TimeUnit::kMicro), 45015250000);
  EXPECT_EQ(*ParseTimeOfDay("12:30:15.123456789", TimeUnit::kNano), 45015123456789);
  EXPECT_FALSE(ParseTimeOfDay("12:30", TimeUnit::kSecond).ok());
  EXPECT_FALSE(ParseTimeOfDay("24:00:00", TimeUnit::kSecond).ok());
  EXPECT_FALSE(ParseTimeOfDay("12:30:15Z", TimeUnit::kSecond).ok());
  EXPECT_EQ(ParseTimeOfDay("12:30:15.5", TimeUnit::kSecond).status().message(),
            "more fractional digits than the unit (s) holds");
}

TEST(TemporalTest, Formatting) {
  EXPECT_EQ(FormatTs(1704164645123, TimeUnit::kMilli), "2024-01-02T03:04:05.123Z");
  EXPECT_EQ(FormatTs(1704164645, TimeUnit::kSecond), "2024-01-02T03:04:05Z");
  EXPECT_EQ(FormatTs(-1, TimeUnit::kNano), "1969-12-31T23:59:59.999999999Z");
  EXPECT_EQ(FormatTs(1, TimeUnit::kMicro), "1970-01-01T00:00:00.000001Z");
  std::string out;
  EXPECT_FALSE(FormatTimestamp(INT64_MAX, TimeUnit::kSecond, &out));
  EXPECT_FALSE(FormatTimestamp(INT64_MIN, TimeUnit::kMilli, &out));
  EXPECT_TRUE(out.empty());
  EXPECT_TRUE(FormatDate(-719528, &out));
  EXPECT_EQ(out, "0000-01-01");
  EXPECT_FALSE(FormatDate(2932897, &out));
  out.clear();
  EXPECT_TRUE(FormatTimeOfDay(45015123456789, TimeUnit::kNano, &out));
  EXPECT_EQ(out, "12:30:15.123456789");
  EXPECT_FALSE(FormatTimeOfDay(86400, TimeUnit::kSecond, &out));
  EXPECT_FALSE(FormatTimeOfDay(-1, TimeUnit::kSecond, &out));
}

}  // namespace
}  // namespace higgins::arrow::json
