// JoinGroup: golden v0 and v5 requests and responses (rebalance timeout from v1, throttle time
// from v2, static membership from v5), round trips at every version, and refusal of others.
#include "kafka/join_group.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

TEST(JoinGroupTest, DecodesV0Request) {
  // Group "g", session timeout 10 s, no member id yet, "consumer" with protocol "range".
  const std::string body =
      Hex("0001 67 | 00002710 | 0000 | 0008 636f6e73756d6572 |"
          "00000001 | 0005 72616e6765 00000002 abcd");
  Reader reader(body);
  auto request = DecodeJoinGroupRequest(reader, 0);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->group_id, "g");
  EXPECT_EQ(request->session_timeout_ms, 10000);
  EXPECT_EQ(request->rebalance_timeout_ms, -1);
  EXPECT_EQ(request->member_id, "");
  EXPECT_EQ(request->group_instance_id, std::nullopt);
  EXPECT_EQ(request->protocol_type, "consumer");
  EXPECT_EQ(request->protocols, (std::vector<JoinGroupProtocol>{{"range", Hex("abcd")}}));
  EXPECT_EQ(testing::EncodeToString(*request, 0, EncodeJoinGroupRequest), body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeJoinGroupRequest(r, 0); });
}

TEST(JoinGroupTest, DecodesV5Request) {
  // Member "m1", instance "i1", rebalance timeout 60 s, protocols "range" and "sticky".
  const std::string body =
      Hex("0001 67 | 00002710 | 0000ea60 | 0002 6d31 | 0002 6931 | 0008 636f6e73756d6572 |"
          "00000002 | 0005 72616e6765 00000002 abcd | 0006 737469636b79 00000000");
  Reader reader(body);
  auto request = DecodeJoinGroupRequest(reader, 5);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->session_timeout_ms, 10000);
  EXPECT_EQ(request->rebalance_timeout_ms, 60000);
  EXPECT_EQ(request->member_id, "m1");
  EXPECT_EQ(request->group_instance_id, "i1");
  EXPECT_EQ(request->protocols,
            (std::vector<JoinGroupProtocol>{{"range", Hex("abcd")}, {"sticky", ""}}));
  EXPECT_EQ(testing::EncodeToString(*request, 5, EncodeJoinGroupRequest), body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeJoinGroupRequest(r, 5); });
}

TEST(JoinGroupTest, NegativeMetadataLengthIsCorruption) {
  const std::string body = Hex("0001 67 | 00002710 | 0000 | 0000 | 00000001 | 0001 72 fffffffe");
  Reader reader(body);
  EXPECT_EQ(DecodeJoinGroupRequest(reader, 0).status().code(), StatusCode::kCorruption);
}

TEST(JoinGroupTest, RequestRoundTripsAtEveryVersion) {
  const std::string metadata = Hex("0001 00000000");
  JoinGroupRequest request;
  request.group_id = "orders";
  request.session_timeout_ms = 45000;
  request.rebalance_timeout_ms = 300000;
  request.member_id = "m-1";
  request.group_instance_id = "host-a";
  request.protocol_type = "consumer";
  request.protocols = {{"cooperative-sticky", metadata}, {"range", ""}};
  for (int16_t v = 0; v <= 5; ++v) {
    JoinGroupRequest expected = request;
    if (v < 1) expected.rebalance_timeout_ms = -1;
    if (v < 5) expected.group_instance_id.reset();
    testing::ExpectRoundTrip(request, expected, v, EncodeJoinGroupRequest, DecodeJoinGroupRequest);
  }
}

TEST(JoinGroupTest, UnsupportedVersions) {
  const std::string body = Hex("0001 67 00002710 0000 0000 00000000");
  for (int16_t v : {int16_t{-1}, int16_t{6}, int16_t{9}}) {
    Reader reader(body);
    EXPECT_EQ(DecodeJoinGroupRequest(reader, v).status().code(), StatusCode::kNotSupported) << v;
    Reader response_reader(body);
    EXPECT_EQ(DecodeJoinGroupResponse(response_reader, v).status().code(),
              StatusCode::kNotSupported)
        << v;
  }
  Reader reader(body);
  EXPECT_EQ(DecodeJoinGroupRequest(reader, 6).status(),
            Status::NotSupported("JoinGroup v6 is not supported (v0-5)"));
}

JoinGroupResponse SampleResponse() {
  JoinGroupResponse response;
  response.throttle_time_ms = 5;
  response.generation_id = 3;
  response.protocol_name = "range";
  response.leader = "m1";
  response.member_id = "m1";
  response.members = {{"m1", "i1", Hex("abcd")}, {"m2", std::nullopt, ""}};
  return response;
}

TEST(JoinGroupTest, ResponseGoldenBytes) {
  EXPECT_EQ(testing::ToHex(testing::EncodeToString(SampleResponse(), 0, EncodeJoinGroupResponse)),
            testing::ToHex(Hex("0000 | 00000003 | 0005 72616e6765 | 0002 6d31 | 0002 6d31 |"
                               "00000002 | 0002 6d31 00000002 abcd | 0002 6d32 00000000")));
  EXPECT_EQ(testing::ToHex(testing::EncodeToString(SampleResponse(), 5, EncodeJoinGroupResponse)),
            testing::ToHex(
                Hex("00000005 | 0000 | 00000003 | 0005 72616e6765 | 0002 6d31 | 0002 6d31 |"
                    "00000002 | 0002 6d31 0002 6931 00000002 abcd | 0002 6d32 ffff 00000000")));
}

TEST(JoinGroupTest, ResponseRoundTripsAtEveryVersion) {
  JoinGroupResponse response = SampleResponse();
  response.error_code = ErrorCode::kMemberIdRequired;
  for (int16_t v = 0; v <= 5; ++v) {
    JoinGroupResponse expected = response;
    if (v < 2) expected.throttle_time_ms = 0;
    for (JoinGroupMember& m : expected.members) {
      if (v < 5) m.group_instance_id.reset();
    }
    testing::ExpectRoundTrip(response, expected, v, EncodeJoinGroupResponse,
                             DecodeJoinGroupResponse);
  }
}

}  // namespace
}  // namespace higgins::kafka
