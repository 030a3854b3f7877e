// LeaveGroup: one member by id in v0-2 against a batch of members in v3, golden v0 and v3
// requests and responses, round trips at every version, and refusal of other versions.
#include "kafka/leave_group.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

TEST(LeaveGroupTest, DecodesV0Request) {
  const std::string body = Hex("0001 67 | 0002 6d31");
  Reader reader(body);
  auto request = DecodeLeaveGroupRequest(reader, 0);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->group_id, "g");
  EXPECT_EQ(request->member_id, "m1");
  EXPECT_TRUE(request->members.empty());
  EXPECT_EQ(testing::EncodeToString(*request, 0, EncodeLeaveGroupRequest), body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeLeaveGroupRequest(r, 0); });
}

TEST(LeaveGroupTest, DecodesV3BatchRequest) {
  // Member "m1" with instance "i1", member "m2" dynamic (null instance).
  const std::string body = Hex("0001 67 | 00000002 | 0002 6d31 0002 6931 | 0002 6d32 ffff");
  Reader reader(body);
  auto request = DecodeLeaveGroupRequest(reader, 3);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->group_id, "g");
  EXPECT_EQ(request->member_id, "");
  EXPECT_EQ(request->members, (std::vector<LeaveGroupMember>{{"m1", "i1"}, {"m2", std::nullopt}}));
  EXPECT_EQ(testing::EncodeToString(*request, 3, EncodeLeaveGroupRequest), body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeLeaveGroupRequest(r, 3); });
}

TEST(LeaveGroupTest, MemberCountBeyondTheBytesIsCorruption) {
  const std::string body = Hex("0001 67 | 00000100 | 0002 6d31 ffff");
  Reader reader(body);
  EXPECT_EQ(DecodeLeaveGroupRequest(reader, 3).status().code(), StatusCode::kCorruption);
}

TEST(LeaveGroupTest, RequestRoundTripsAtEveryVersion) {
  LeaveGroupRequest request;
  request.group_id = "orders";
  request.member_id = "m-1";
  request.members = {{"m-1", "host-a"}, {"m-2", std::nullopt}};
  for (int16_t v = 0; v <= 3; ++v) {
    LeaveGroupRequest expected = request;
    if (v <= 2) {
      expected.members.clear();
    } else {
      expected.member_id = "";
    }
    testing::ExpectRoundTrip(request, expected, v, EncodeLeaveGroupRequest,
                             DecodeLeaveGroupRequest);
  }
}

TEST(LeaveGroupTest, UnsupportedVersions) {
  const std::string body = Hex("0001 67 0000");
  for (int16_t v : {int16_t{-1}, int16_t{4}, int16_t{5}}) {
    Reader reader(body);
    EXPECT_EQ(DecodeLeaveGroupRequest(reader, v).status().code(), StatusCode::kNotSupported) << v;
    Reader response_reader(body);
    EXPECT_EQ(DecodeLeaveGroupResponse(response_reader, v).status().code(),
              StatusCode::kNotSupported)
        << v;
  }
  Reader reader(body);
  EXPECT_EQ(DecodeLeaveGroupRequest(reader, 4).status(),
            Status::NotSupported("LeaveGroup v4 is not supported (v0-3)"));
}

LeaveGroupResponse SampleResponse() {
  LeaveGroupResponse response;
  response.throttle_time_ms = 2;
  response.members = {{"m1", "i1", ErrorCode::kNone},
                      {"m2", std::nullopt, ErrorCode::kUnknownMemberId}};
  return response;
}

TEST(LeaveGroupTest, ResponseGoldenBytes) {
  EXPECT_EQ(testing::ToHex(testing::EncodeToString(SampleResponse(), 0, EncodeLeaveGroupResponse)),
            testing::ToHex(Hex("0000")));
  EXPECT_EQ(testing::ToHex(testing::EncodeToString(SampleResponse(), 3, EncodeLeaveGroupResponse)),
            testing::ToHex(Hex("00000002 | 0000 | 00000002 | 0002 6d31 0002 6931 0000 |"
                               "0002 6d32 ffff 0019")));
}

TEST(LeaveGroupTest, ResponseRoundTripsAtEveryVersion) {
  for (int16_t v = 0; v <= 3; ++v) {
    LeaveGroupResponse expected = SampleResponse();
    if (v < 1) expected.throttle_time_ms = 0;
    if (v < 3) expected.members.clear();
    testing::ExpectRoundTrip(SampleResponse(), expected, v, EncodeLeaveGroupResponse,
                             DecodeLeaveGroupResponse);
  }
}

}  // namespace
}  // namespace higgins::kafka
