#include "client/subscription_id.h"

#include <gtest/gtest.h>

namespace higgins::client_internal {
namespace {

constexpr char kText[] = "0123abcd-4567-89ef-0a1b-2c3d4e5f6071";
const std::string kBytes("\x01\x23\xab\xcd\x45\x67\x89\xef\x0a\x1b\x2c\x3d\x4e\x5f\x60\x71", 16);

TEST(SubscriptionIdTest, TextRoundTripsThroughTheWireForm) {
  auto id = SubscriptionId::Parse(kText);
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  EXPECT_EQ(id->bytes(), kBytes);
  EXPECT_EQ(id->ToString(), kText);
  auto wire = SubscriptionId::FromWire(kBytes);
  ASSERT_TRUE(wire.ok());
  EXPECT_EQ(*wire, *id);
}

TEST(SubscriptionIdTest, UpperCaseAndBareHexAreAccepted) {
  auto upper = SubscriptionId::Parse("0123ABCD-4567-89EF-0A1B-2C3D4E5F6071");
  ASSERT_TRUE(upper.ok());
  EXPECT_EQ(upper->ToString(), kText);
  auto bare = SubscriptionId::Parse("0123abcd456789ef0a1b2c3d4e5f6071");
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(bare->bytes(), kBytes);
}

TEST(SubscriptionIdTest, MalformedTextIsInvalidArgument) {
  for (const char* bad :
       {"", "0123abcd", "0123abcd-4567-89ef-0a1b-2c3d4e5f607",
        "0123abcd-4567-89ef-0a1b-2c3d4e5f60712", "0123abcd-456789ef-0a1b-2c3d4e5f6071-",
        "0123abcd_4567_89ef_0a1b_2c3d4e5f6071", "0123abcg-4567-89ef-0a1b-2c3d4e5f6071",
        "0123abcd456789ef0a1b2c3d4e5f607z", " 123abcd456789ef0a1b2c3d4e5f6071",
        "{0123abcd-4567-89ef-0a1b-2c3d4e5f60}"}) {
    auto id = SubscriptionId::Parse(bad);
    EXPECT_EQ(id.status().code(), StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_EQ(SubscriptionId::Parse("nope").status(),
            Status::InvalidArgument("'nope' is not a subscription id: expected a UUID (8-4-4-4-12 "
                                    "hex digits, or 32 hex digits)"));
}

TEST(SubscriptionIdTest, WireIdsOfAnotherLengthAreCorruption) {
  EXPECT_EQ(SubscriptionId::FromWire("").status(),
            Status::Corruption("subscription id of 0 bytes, expected 16"));
  EXPECT_EQ(SubscriptionId::FromWire(std::string(17, 'x')).status().code(),
            StatusCode::kCorruption);
}

}  // namespace
}  // namespace higgins::client_internal
