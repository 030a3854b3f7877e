#include "subscription_text.h"

#include <gtest/gtest.h>

namespace higgins::cli {
namespace {

TEST(SubscriptionText, StartsByName) {
  EXPECT_EQ(ParseSubscriptionStart("beginning")->kind, SubscriptionStart::Kind::kBeginning);
  EXPECT_EQ(ParseSubscriptionStart("current")->kind, SubscriptionStart::Kind::kCurrent);
  auto offset = ParseSubscriptionStart("offset:42");
  ASSERT_TRUE(offset.ok());
  EXPECT_EQ(offset->kind, SubscriptionStart::Kind::kOffset);
  EXPECT_EQ(offset->value, 42u);
  EXPECT_EQ(DescribeStart(*offset), "offset 42");
}

TEST(SubscriptionText, TimeStartsTakeWhatQueryAtTimeTakes) {
  auto ms = ParseSubscriptionStart("time:1795953600000");
  ASSERT_TRUE(ms.ok());
  EXPECT_EQ(ms->kind, SubscriptionStart::Kind::kTimestamp);
  EXPECT_EQ(ms->value, 1795953600000u);
  auto iso = ParseSubscriptionStart("time:2026-11-29T12:00:00Z");
  ASSERT_TRUE(iso.ok());
  EXPECT_EQ(iso->value, 1795953600000u);
  EXPECT_EQ(DescribeStart(*iso), "time 2026-11-29T12:00:00.000Z");
}

TEST(SubscriptionText, BadStartsNameTheAcceptedForms) {
  EXPECT_EQ(ParseSubscriptionStart("latest").status(),
            Status::InvalidArgument("'latest' is not a start: expected beginning, current, "
                                    "offset:N or time:T (ms since the Unix epoch or ISO 8601)"));
  for (const char* bad :
       {"", "Beginning", "offset:", "offset:-1", "offset:1x", "offset:18446744073709551616"}) {
    EXPECT_EQ(ParseSubscriptionStart(bad).status().code(), StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_FALSE(ParseSubscriptionStart("time:yesterday").ok());
  EXPECT_EQ(ParseSubscriptionStart("time:-5").status().code(), StatusCode::kOutOfRange);
}

SubscriptionInfo Info() {
  SubscriptionInfo info;
  info.id = "0123abcd-4567-89ef-0a1b-2c3d4e5f6071";
  info.stream = "events";
  info.start = SubscriptionStart::Kind::kCurrent;
  info.visibility_timeout_ms = 30000;
  info.consumers = 1;
  info.unacknowledged = 2;
  info.pending = 5;
  info.durable = true;
  return info;
}

TEST(SubscriptionText, ListingIsOneRowPerSubscription) {
  EXPECT_EQ(SubscriptionsTable({Info()}),
            "id                                    stream  start    timeout_ms  consumers  "
            "unacknowledged  pending  durable\n"
            "0123abcd-4567-89ef-0a1b-2c3d4e5f6071  events  current  30000       1          "
            "2               5        true\n");
}

TEST(SubscriptionText, DetailsListPartitionsAndConsumers) {
  SubscriptionInfo info = Info();
  info.partitions.push_back({"k1", 3, 10, 5, 2, 0});
  info.partitions_truncated = true;
  info.consumer_list.push_back({7, 98, 2});
  const std::string details = SubscriptionDetails(info);
  EXPECT_NE(details.find("\n\npartition  watermark  records  next_offset  unacknowledged  "
                         "acknowledged_above\n"
                         "k1         3          10       5            2               0\n"
                         "(the broker listed the first 1 partitions)\n"
                         "\nconsumer  demand  in_flight\n"
                         "7         98      2\n"),
            std::string::npos)
      << details;
}

}  // namespace
}  // namespace higgins::cli
