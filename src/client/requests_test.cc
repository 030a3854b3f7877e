#include "client/requests.h"

#include <gtest/gtest.h>

namespace higgins::client_internal {
namespace {

namespace wire = higgins::wire;

TEST(RequestsTest, SubscriptionStartsMapToOffsetTypes) {
  auto beginning = CreateSubscriptionRequest("s", SubscriptionStart::Beginning(), 0);
  EXPECT_EQ(beginning.type(), wire::Message::CREATESUBSCRIPTIONREQUEST);
  const auto& b = beginning.createsubscriptionrequest();
  EXPECT_EQ(b.stream_name(), "s");
  EXPECT_EQ(b.offset_type(), wire::FROM_BEGINNING);
  EXPECT_FALSE(b.has_timeout_ms());  // zero: the broker's default
  EXPECT_FALSE(b.has_offset());
  EXPECT_FALSE(b.has_timestamp());

  auto current = CreateSubscriptionRequest("s", SubscriptionStart::Current(), 500);
  EXPECT_EQ(current.createsubscriptionrequest().offset_type(), wire::CURRENT);
  EXPECT_EQ(current.createsubscriptionrequest().timeout_ms(), 500u);

  auto offset = CreateSubscriptionRequest("s", SubscriptionStart::Offset(7), 0);
  EXPECT_EQ(offset.createsubscriptionrequest().offset_type(), wire::FROM_OFFSET);
  EXPECT_EQ(offset.createsubscriptionrequest().offset(), 7u);

  auto time = CreateSubscriptionRequest("s", SubscriptionStart::Timestamp(1700000000000), 0);
  EXPECT_EQ(time.createsubscriptionrequest().offset_type(), wire::FROM_TIMESTAMP);
  EXPECT_EQ(time.createsubscriptionrequest().timestamp(), 1700000000000u);
}

TEST(RequestsTest, AcknowledgementPadsKeysAndIncludesTheEnd) {
  const AckRange ranges[] = {{"k1", 0, 3}, {std::string(40, 'x'), 5, 6}};
  auto m = AcknowledgeRequest("0123456789abcdef", ranges, "events");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->type(), wire::Message::ACKNOWLEDGEREQUEST);
  const auto& r = m->acknowledgerequest();
  EXPECT_EQ(r.stream(), "events");
  EXPECT_EQ(r.subscription_id(), "0123456789abcdef");
  ASSERT_EQ(r.offsets_size(), 2);
  EXPECT_EQ(r.offsets(0).key(), "k1" + std::string(30, '\0'));
  EXPECT_EQ(r.offsets(0).range().start(), 0u);
  EXPECT_EQ(r.offsets(0).range().end(), 2u);  // the wire's end is included
  EXPECT_EQ(r.offsets(1).key(), std::string(40, 'x'));
  EXPECT_EQ(r.offsets(1).range().start(), 5u);
  EXPECT_EQ(r.offsets(1).range().end(), 5u);
}

TEST(RequestsTest, EmptyAcknowledgementRangeIsInvalidArgument) {
  const AckRange ranges[] = {{"k1", 0, 3}, {"k2", 4, 4}};
  EXPECT_EQ(AcknowledgeRequest("0123456789abcdef", ranges, "").status(),
            Status::InvalidArgument("range 1 of partition 'k2': [4, 4) is empty (the end is "
                                    "exclusive: [4, 5) acknowledges offset 4)"));
  const AckRange backwards[] = {{"k1", 3, 1}};
  EXPECT_EQ(AcknowledgeRequest("0123456789abcdef", backwards, "").status().code(),
            StatusCode::kInvalidArgument);
}

TEST(RequestsTest, TakeGetAndDeleteCarryTheIdBytes) {
  auto take = TakeRecordsRequest("0123456789abcdef", 100, "");
  EXPECT_EQ(take.type(), wire::Message::TAKERECORDSREQUEST);
  EXPECT_EQ(take.takerecordsrequest().n(), 100u);
  EXPECT_EQ(take.takerecordsrequest().subscription_id(), "0123456789abcdef");
  auto listing = ListSubscriptionsRequest("events");
  EXPECT_EQ(listing.type(), wire::Message::GETSUBSCRIPTIONREQUEST);
  EXPECT_TRUE(listing.getsubscriptionrequest().subscription_id().empty());
  EXPECT_EQ(listing.getsubscriptionrequest().stream(), "events");
  auto id = SubscriptionId::FromWire("0123456789abcdef");
  ASSERT_TRUE(id.ok());
  auto get = GetSubscriptionRequest(*id, "events");
  EXPECT_EQ(get.getsubscriptionrequest().subscription_id(), "0123456789abcdef");
  EXPECT_EQ(get.getsubscriptionrequest().stream(), "events");
  auto remove = DeleteSubscriptionRequest(*id, "");
  EXPECT_EQ(remove.type(), wire::Message::DELETESUBSCRIPTIONREQUEST);
  EXPECT_EQ(remove.deletesubscriptionrequest().subscription_id(), "0123456789abcdef");
  EXPECT_EQ(RequestName(wire::Message::TAKERECORDSREQUEST), "the take");
}

}  // namespace
}  // namespace higgins::client_internal
