// SyncGroup: golden v0 and v3 requests and responses (throttle time from v1, static
// membership from v3), round trips at every version, and refusal of other versions.
#include "kafka/sync_group.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

TEST(SyncGroupTest, DecodesV0LeaderRequest) {
  // Group "g", generation 3, leader "m1" assigning "abcd" to itself and nothing to "m2".
  const std::string body =
      Hex("0001 67 | 00000003 | 0002 6d31 | 00000002 | 0002 6d31 00000002 abcd |"
          "0002 6d32 00000000");
  Reader reader(body);
  auto request = DecodeSyncGroupRequest(reader, 0);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->group_id, "g");
  EXPECT_EQ(request->generation_id, 3);
  EXPECT_EQ(request->member_id, "m1");
  EXPECT_EQ(request->group_instance_id, std::nullopt);
  EXPECT_EQ(request->assignments,
            (std::vector<SyncGroupAssignment>{{"m1", Hex("abcd")}, {"m2", ""}}));
  EXPECT_EQ(testing::EncodeToString(*request, 0, EncodeSyncGroupRequest), body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeSyncGroupRequest(r, 0); });
}

TEST(SyncGroupTest, DecodesV3FollowerRequest) {
  const std::string body = Hex("0001 67 | 00000003 | 0002 6d32 | 0002 6932 | 00000000");
  Reader reader(body);
  auto request = DecodeSyncGroupRequest(reader, 3);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->member_id, "m2");
  EXPECT_EQ(request->group_instance_id, "i2");
  EXPECT_TRUE(request->assignments.empty());
  EXPECT_EQ(testing::EncodeToString(*request, 3, EncodeSyncGroupRequest), body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeSyncGroupRequest(r, 3); });
}

TEST(SyncGroupTest, RequestRoundTripsAtEveryVersion) {
  const std::string assignment = Hex("0001 00000001 0001 74 00000001 00000000 ffffffff");
  SyncGroupRequest request;
  request.group_id = "orders";
  request.generation_id = 12;
  request.member_id = "m-1";
  request.group_instance_id = "host-a";
  request.assignments = {{"m-1", assignment}, {"m-2", ""}};
  for (int16_t v = 0; v <= 3; ++v) {
    SyncGroupRequest expected = request;
    if (v < 3) expected.group_instance_id.reset();
    testing::ExpectRoundTrip(request, expected, v, EncodeSyncGroupRequest, DecodeSyncGroupRequest);
  }
}

TEST(SyncGroupTest, UnsupportedVersions) {
  const std::string body = Hex("0001 67 00000003 0000 00000000");
  for (int16_t v : {int16_t{-1}, int16_t{4}, int16_t{5}}) {
    Reader reader(body);
    EXPECT_EQ(DecodeSyncGroupRequest(reader, v).status().code(), StatusCode::kNotSupported) << v;
    Reader response_reader(body);
    EXPECT_EQ(DecodeSyncGroupResponse(response_reader, v).status().code(),
              StatusCode::kNotSupported)
        << v;
  }
  Reader reader(body);
  EXPECT_EQ(DecodeSyncGroupRequest(reader, 4).status(),
            Status::NotSupported("SyncGroup v4 is not supported (v0-3)"));
}

TEST(SyncGroupTest, ResponseGoldenBytes) {
  const SyncGroupResponse response{4, ErrorCode::kNone, Hex("abcd")};
  EXPECT_EQ(testing::ToHex(testing::EncodeToString(response, 0, EncodeSyncGroupResponse)),
            testing::ToHex(Hex("0000 | 00000002 abcd")));
  EXPECT_EQ(testing::ToHex(testing::EncodeToString(response, 3, EncodeSyncGroupResponse)),
            testing::ToHex(Hex("00000004 | 0000 | 00000002 abcd")));
}

TEST(SyncGroupTest, ResponseRoundTripsAtEveryVersion) {
  const SyncGroupResponse response{4, ErrorCode::kRebalanceInProgress, Hex("abcd")};
  for (int16_t v = 0; v <= 3; ++v) {
    SyncGroupResponse expected = response;
    if (v < 1) expected.throttle_time_ms = 0;
    testing::ExpectRoundTrip(response, expected, v, EncodeSyncGroupResponse,
                             DecodeSyncGroupResponse);
  }
}

}  // namespace
}  // namespace higgins::kafka
