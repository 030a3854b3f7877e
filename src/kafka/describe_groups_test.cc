// DescribeGroups: golden v0 and v4 requests and responses (throttle time from v1, authorized
// operations from v3, members' group_instance_id from v4), round trips at every version, and
// refusal of other versions.
#include "kafka/describe_groups.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

TEST(DescribeGroupsTest, DecodesV0AndV4Requests) {
  const std::string v0 = Hex("00000002 | 0001 67 | 0001 68");
  Reader reader(v0);
  auto request = DecodeDescribeGroupsRequest(reader, 0);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->groups, (std::vector<std::string_view>{"g", "h"}));
  EXPECT_FALSE(request->include_authorized_operations);
  EXPECT_EQ(testing::EncodeToString(*request, 0, EncodeDescribeGroupsRequest), v0);
  testing::ExpectEveryPrefixFails(v0, [](Reader& r) { return DecodeDescribeGroupsRequest(r, 0); });

  const std::string v4 = Hex("00000001 | 0001 67 | 01");
  Reader reader4(v4);
  auto request4 = DecodeDescribeGroupsRequest(reader4, 4);
  ASSERT_TRUE(request4.ok()) << request4.status().ToString();
  EXPECT_EQ(request4->groups, (std::vector<std::string_view>{"g"}));
  EXPECT_TRUE(request4->include_authorized_operations);
  EXPECT_EQ(testing::EncodeToString(*request4, 4, EncodeDescribeGroupsRequest), v4);
  testing::ExpectEveryPrefixFails(v4, [](Reader& r) { return DecodeDescribeGroupsRequest(r, 4); });
}

DescribeGroupsResponse SampleResponse() {
  DescribeGroupsResponse response;
  response.throttle_time_ms = 2;
  DescribedGroup g;
  g.group_id = "g";
  g.group_state = "Stable";
  g.protocol_type = "consumer";
  g.protocol_data = "range";
  g.members.push_back({"m1", "i1", "c", "/127.0.0.1", "md", "as"});
  g.authorized_operations = 0;
  response.groups.push_back(g);
  return response;
}

TEST(DescribeGroupsTest, ResponseGoldenBytes) {
  const std::string group_head =
      "0000 | 0001 67 | 0006 537461626c65 | 0008 636f6e73756d6572 | 0005 72616e6765 | 00000001 |";
  const std::string member_tail =
      "0001 63 | 000a 2f3132372e302e302e31 | 00000002 6d64 | 00000002 6173";
  EXPECT_EQ(
      testing::ToHex(testing::EncodeToString(SampleResponse(), 0, EncodeDescribeGroupsResponse)),
      testing::ToHex(Hex("00000001 |" + group_head + "0002 6d31 |" + member_tail)));
  EXPECT_EQ(
      testing::ToHex(testing::EncodeToString(SampleResponse(), 4, EncodeDescribeGroupsResponse)),
      testing::ToHex(Hex("00000002 | 00000001 |" + group_head + "0002 6d31 | 0002 6931 |" +
                         member_tail + "| 00000000")));
}

TEST(DescribeGroupsTest, RoundTripsAtEveryVersion) {
  DescribeGroupsRequest request;
  request.groups = {"a", "b"};
  request.include_authorized_operations = true;
  for (int16_t v = 0; v <= 4; ++v) {
    DescribeGroupsRequest expected = request;
    if (v < 3) expected.include_authorized_operations = false;
    testing::ExpectRoundTrip(request, expected, v, EncodeDescribeGroupsRequest,
                             DecodeDescribeGroupsRequest);
    DescribeGroupsResponse response = SampleResponse();
    if (v < 1) response.throttle_time_ms = 0;
    if (v < 3) response.groups[0].authorized_operations = INT32_MIN;
    if (v < 4) response.groups[0].members[0].group_instance_id.reset();
    testing::ExpectRoundTrip(SampleResponse(), response, v, EncodeDescribeGroupsResponse,
                             DecodeDescribeGroupsResponse);
  }
}

TEST(DescribeGroupsTest, UnsupportedVersions) {
  const std::string body = Hex("00000000");
  for (int16_t v : {int16_t{-1}, int16_t{5}}) {
    Reader reader(body);
    EXPECT_EQ(DecodeDescribeGroupsRequest(reader, v).status().code(), StatusCode::kNotSupported)
        << v;
  }
}

}  // namespace
}  // namespace higgins::kafka
