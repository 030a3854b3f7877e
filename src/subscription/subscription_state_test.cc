#include "subscription/subscription_state.h"

#include <gtest/gtest.h>

#include <set>

namespace higgins::subscription {
namespace {

using std::chrono::milliseconds;
using Clock = SubscriptionState::Clock;

const Clock::time_point kT0 = Clock::time_point{} + std::chrono::hours(1);

std::vector<Grant> Drain(SubscriptionState& s, Clock::time_point now, uint64_t max = 100) {
  std::vector<Grant> out;
  while (auto g = s.NextGrant(now, max)) out.push_back(*g);
  return out;
}

TEST(SubscriptionStateTest, PushesEachPartitionInOffsetOrderUpToTheDemand) {
  SubscriptionState s(milliseconds(1000));
  s.AddPartition("a", 0);
  s.AddPartition("b", 0);
  s.NoteAvailable("a", 5);
  s.NoteAvailable("b", 2);
  EXPECT_FALSE(s.CanGrant());  // no consumer yet
  EXPECT_EQ(s.Take(ConsumerId(7), 4, 1000), 4u);
  auto grants = Drain(s, kT0, 3);
  // Partitions take turns; the demand (4) bounds the total.
  ASSERT_EQ(grants.size(), 2u);
  EXPECT_EQ(grants[0].key, "a");
  EXPECT_EQ(grants[0].start, 0u);
  EXPECT_EQ(grants[0].end, 3u);
  EXPECT_EQ(grants[1].key, "b");
  EXPECT_EQ(grants[1].start, 0u);
  EXPECT_EQ(grants[1].end, 1u);
  EXPECT_EQ(s.Take(ConsumerId(7), 10, 1000), 10u);
  grants = Drain(s, kT0, 3);
  ASSERT_EQ(grants.size(), 2u);
  EXPECT_EQ(grants[0].key, "a");
  EXPECT_EQ(grants[0].start, 3u);
  EXPECT_EQ(grants[0].end, 5u);
  EXPECT_EQ(grants[1].key, "b");
  EXPECT_EQ(grants[1].start, 1u);
  EXPECT_EQ(grants[1].end, 2u);
  EXPECT_EQ(s.Consumers()[0].demand, 7u);
  EXPECT_EQ(s.Consumers()[0].in_flight, 7u);
}

TEST(SubscriptionStateTest, AcknowledgementsAdvanceTheWatermarkAndBeyondPushedIsAnError) {
  SubscriptionState s(milliseconds(1000));
  s.AddPartition("a", 0);
  s.NoteAvailable("a", 10);
  s.Take(ConsumerId(1), 6, 1000);
  ASSERT_EQ(Drain(s, kT0).size(), 1u);  // [0, 6)
  std::vector<OffsetRange> failed;
  Status beyond = s.Acknowledge({{"a", 4, 7}}, &failed);
  EXPECT_EQ(beyond.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(beyond.message().find("offsets 4 to 6: offsets from 6 were never pushed"),
            std::string::npos)
      << beyond.message();
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0], (OffsetRange{"a", 4, 7}));
  failed.clear();
  EXPECT_EQ(s.Acknowledge({{"a", 3, 3}}, &failed).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.Acknowledge({{"zz", 0, 1}}, &failed).code(), StatusCode::kInvalidArgument);
  // All or nothing: one bad range and the good one is not applied either.
  EXPECT_FALSE(s.Acknowledge({{"a", 0, 2}, {"a", 5, 9}}, nullptr).ok());
  EXPECT_EQ(s.Partitions(10)[0].watermark, 0u);

  ASSERT_TRUE(s.Acknowledge({{"a", 2, 4}}, nullptr).ok());
  auto p = s.Partitions(10)[0];
  EXPECT_EQ(p.watermark, 0u);
  EXPECT_EQ(p.acknowledged_above, 2u);
  EXPECT_EQ(p.unacknowledged, 4u);
  ASSERT_TRUE(s.Acknowledge({{"a", 0, 2}}, nullptr).ok());
  p = s.Partitions(10)[0];
  EXPECT_EQ(p.watermark, 4u);
  EXPECT_EQ(p.acknowledged_above, 0u);
  EXPECT_EQ(p.unacknowledged, 2u);
  EXPECT_EQ(s.Consumers()[0].in_flight, 2u);
  // Again: a no-op.
  ASSERT_TRUE(s.Acknowledge({{"a", 0, 4}}, nullptr).ok());
  EXPECT_EQ(s.Consumers()[0].in_flight, 2u);
}

TEST(SubscriptionStateTest, OnlyUnacknowledgedRecordsAreRedeliveredAfterTheTimeout) {
  SubscriptionState s(milliseconds(1000));
  s.AddPartition("a", 0);
  s.NoteAvailable("a", 10);
  s.Take(ConsumerId(1), 100, 1000);
  ASSERT_EQ(Drain(s, kT0).size(), 1u);  // [0, 10)
  ASSERT_TRUE(s.Acknowledge({{"a", 0, 3}, {"a", 5, 6}, {"a", 8, 10}}, nullptr).ok());
  EXPECT_EQ(s.Expire(kT0 + milliseconds(999)), kT0 + milliseconds(1000));
  EXPECT_TRUE(Drain(s, kT0 + milliseconds(999)).empty());
  EXPECT_EQ(s.Expire(kT0 + milliseconds(1000)), std::nullopt);
  auto again = Drain(s, kT0 + milliseconds(1000));
  ASSERT_EQ(again.size(), 2u);
  EXPECT_TRUE(again[0].redelivered);
  EXPECT_EQ(again[0].start, 3u);
  EXPECT_EQ(again[0].end, 5u);
  EXPECT_EQ(again[1].start, 6u);
  EXPECT_EQ(again[1].end, 8u);
  ASSERT_TRUE(s.Acknowledge({{"a", 3, 5}, {"a", 6, 8}}, nullptr).ok());
  EXPECT_EQ(s.Partitions(10)[0].watermark, 10u);
  EXPECT_EQ(s.Expire(kT0 + milliseconds(5000)), std::nullopt);
  EXPECT_TRUE(Drain(s, kT0 + milliseconds(5000)).empty());
  EXPECT_EQ(s.Unacknowledged(), 0u);
}

TEST(SubscriptionStateTest, ConsumersGetDisjointRecordsAndADisconnectGivesThemBack) {
  SubscriptionState s(milliseconds(60'000));
  for (int k = 0; k < 20; ++k) {
    s.AddPartition("k" + std::to_string(k), 0);
    s.NoteAvailable("k" + std::to_string(k), 50);
  }
  s.Take(ConsumerId(1), 300, 1000);
  s.Take(ConsumerId(2), 300, 1000);
  s.Take(ConsumerId(3), 300, 1000);
  auto grants = Drain(s, kT0, 7);
  std::map<ConsumerId, uint64_t> per_consumer;
  std::set<std::pair<std::string, uint64_t>> seen;
  std::map<std::string, uint64_t> next;
  for (const Grant& g : grants) {
    per_consumer[g.consumer] += g.end - g.start;
    EXPECT_EQ(g.start, next[g.key]) << "partition order";
    next[g.key] = g.end;
    for (uint64_t o = g.start; o < g.end; ++o) EXPECT_TRUE(seen.insert({g.key, o}).second);
  }
  EXPECT_EQ(seen.size(), 900u);
  EXPECT_EQ(per_consumer[ConsumerId(1)], 300u);
  EXPECT_EQ(per_consumer[ConsumerId(2)], 300u);
  EXPECT_EQ(per_consumer[ConsumerId(3)], 300u);
  // Consumer 2 leaves: its 300 go to whoever has demand, and only those.
  s.RemoveConsumer(ConsumerId(2));
  EXPECT_EQ(s.Unacknowledged(), 900u);
  s.Take(ConsumerId(1), 1000, 1000);
  auto again = Drain(s, kT0, 1000);
  uint64_t redelivered = 0;
  uint64_t fresh = 0;
  for (const Grant& g : again) {
    EXPECT_EQ(g.consumer, ConsumerId(1));
    (g.redelivered ? redelivered : fresh) += g.end - g.start;
  }
  EXPECT_EQ(redelivered, 300u);
  EXPECT_EQ(fresh, 100u);  // the rest of the 1000 records
}

TEST(SubscriptionStateTest, RestoredAcknowledgementsAreSkippedAndTheRestIsPushedAgain) {
  SubscriptionState s(milliseconds(1000));
  s.AddPartition("a", 2);  // the subscription starts at offset 2
  s.RestoreAcknowledged("a", 0, 4);
  s.RestoreAcknowledged("a", 6, 8);
  s.NoteAvailable("a", 10);
  s.Take(ConsumerId(1), 100, 1000);
  auto grants = Drain(s, kT0);
  ASSERT_EQ(grants.size(), 2u);
  EXPECT_EQ(grants[0].start, 4u);
  EXPECT_EQ(grants[0].end, 6u);
  EXPECT_EQ(grants[1].start, 8u);
  EXPECT_EQ(grants[1].end, 10u);
  EXPECT_EQ(s.Partitions(1)[0].watermark, 4u);
  EXPECT_EQ(s.Pending(), 0u);
}

TEST(SubscriptionStateTest, AcknowledgingTheGapBelowRestoredRangesNeverPushesThemAgain) {
  // Found by the breaker: 2..5 acknowledged before a restart; after it, acknowledging 0 and 1
  // moves the watermark to 6, past `next`, and 2..5 must not come back.
  SubscriptionState s(milliseconds(1000));
  s.AddPartition("a", 0);
  s.RestoreAcknowledged("a", 2, 6);
  s.NoteAvailable("a", 10);
  s.FinishRestore();
  s.Take(ConsumerId(1), 1, 1000);
  auto g = Drain(s, kT0);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].start, 0u);
  EXPECT_EQ(g[0].end, 1u);
  ASSERT_TRUE(s.Acknowledge({{"a", 0, 1}}, nullptr).ok());
  s.Take(ConsumerId(1), 1, 1000);
  g = Drain(s, kT0);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].start, 1u);
  ASSERT_TRUE(s.Acknowledge({{"a", 1, 2}}, nullptr).ok());
  EXPECT_EQ(s.Partitions(1)[0].watermark, 6u);
  s.Take(ConsumerId(1), 100, 1000);
  g = Drain(s, kT0);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].start, 6u);
  EXPECT_EQ(g[0].end, 10u);
}

TEST(SubscriptionStateTest, AfterARestartRecordsThatExistedThenMayBeAcknowledged) {
  SubscriptionState s(milliseconds(1000));
  s.AddPartition("a", 0);
  s.RestoreAcknowledged("a", 3, 5);
  s.NoteAvailable("a", 8);
  s.FinishRestore();
  // Pushed before the restart (the client could not know it restarted), or acknowledged again.
  EXPECT_TRUE(s.Acknowledge({{"a", 6, 8}, {"a", 3, 5}}, nullptr).ok());
  EXPECT_EQ(s.Acknowledge({{"a", 6, 9}}, nullptr).code(), StatusCode::kInvalidArgument);
  s.Take(ConsumerId(1), 100, 1000);
  auto g = Drain(s, kT0);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].start, 0u);
  EXPECT_EQ(g[0].end, 3u);
  EXPECT_EQ(g[1].start, 5u);
  EXPECT_EQ(g[1].end, 6u);
}

TEST(SubscriptionStateTest, ConsumersThatAreNotReadyGetNothing) {
  SubscriptionState s(milliseconds(1000));
  s.AddPartition("a", 0);
  s.NoteAvailable("a", 4);
  s.Take(ConsumerId(1), 10, 1000);
  s.Take(ConsumerId(2), 10, 1000);
  auto only2 = [](ConsumerId c) { return c == ConsumerId(2); };
  auto g = s.NextGrant(kT0, 2, only2);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->consumer, ConsumerId(2));
  g = s.NextGrant(kT0, 2, only2);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->consumer, ConsumerId(2));
  EXPECT_FALSE(s.NextGrant(kT0, 2, [](ConsumerId) { return false; }).has_value());
}

TEST(SubscriptionStateTest, DemandSaturatesAtTheLimit) {
  SubscriptionState s(milliseconds(1000));
  EXPECT_EQ(s.Take(ConsumerId(1), 900, 1000), 900u);
  EXPECT_EQ(s.Take(ConsumerId(1), 900, 1000), 1000u);
  EXPECT_EQ(s.Take(ConsumerId(1), UINT64_MAX, 1000), 1000u);
}

TEST(SubscriptionStateTest, PartialAcknowledgementOfAGrantKeepsTheRestOnItsDeadline) {
  SubscriptionState s(milliseconds(1000));
  s.AddPartition("a", 0);
  s.NoteAvailable("a", 10);
  s.Take(ConsumerId(1), 10, 1000);
  ASSERT_EQ(Drain(s, kT0).size(), 1u);
  ASSERT_TRUE(s.Acknowledge({{"a", 4, 6}}, nullptr).ok());
  EXPECT_EQ(s.Consumers()[0].in_flight, 8u);
  s.Expire(kT0 + milliseconds(1000));
  EXPECT_EQ(s.Consumers()[0].in_flight, 0u);
  s.Take(ConsumerId(1), 10, 1000);
  auto again = Drain(s, kT0 + milliseconds(1000));
  ASSERT_EQ(again.size(), 2u);
  EXPECT_EQ(again[0].start, 0u);
  EXPECT_EQ(again[0].end, 4u);
  EXPECT_EQ(again[1].start, 6u);
  EXPECT_EQ(again[1].end, 10u);
}

}  // namespace
}  // namespace higgins::subscription
