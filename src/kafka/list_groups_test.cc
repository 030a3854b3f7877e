// ListGroups: the empty request, golden v0 and v1 responses (throttle time from v1), round
// trips at every version, and refusal of other versions.
#include "kafka/list_groups.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

TEST(ListGroupsTest, TheRequestIsEmpty) {
  for (int16_t v = 0; v <= 2; ++v) {
    Reader reader("");
    EXPECT_TRUE(DecodeListGroupsRequest(reader, v).ok()) << v;
    EXPECT_EQ(testing::EncodeToString(ListGroupsRequest{}, v, EncodeListGroupsRequest), "");
  }
  const std::string extra = Hex("00");
  Reader reader(extra);
  EXPECT_EQ(DecodeListGroupsRequest(reader, 0).status().code(), StatusCode::kCorruption);
}

ListGroupsResponse SampleResponse() {
  ListGroupsResponse response;
  response.throttle_time_ms = 4;
  response.groups = {{"g", "consumer"}, {"h", ""}};
  return response;
}

TEST(ListGroupsTest, ResponseGoldenBytes) {
  const std::string groups = "00000002 | 0001 67 0008 636f6e73756d6572 | 0001 68 0000";
  EXPECT_EQ(testing::ToHex(testing::EncodeToString(SampleResponse(), 0, EncodeListGroupsResponse)),
            testing::ToHex(Hex("0000 |" + groups)));
  EXPECT_EQ(testing::ToHex(testing::EncodeToString(SampleResponse(), 1, EncodeListGroupsResponse)),
            testing::ToHex(Hex("00000004 | 0000 |" + groups)));
}

TEST(ListGroupsTest, RoundTripsAtEveryVersion) {
  for (int16_t v = 0; v <= 2; ++v) {
    ListGroupsResponse expected = SampleResponse();
    if (v < 1) expected.throttle_time_ms = 0;
    testing::ExpectRoundTrip(SampleResponse(), expected, v, EncodeListGroupsResponse,
                             DecodeListGroupsResponse);
  }
}

TEST(ListGroupsTest, UnsupportedVersions) {
  for (int16_t v : {int16_t{-1}, int16_t{3}}) {
    Reader reader("");
    EXPECT_EQ(DecodeListGroupsRequest(reader, v).status().code(), StatusCode::kNotSupported) << v;
  }
}

}  // namespace
}  // namespace higgins::kafka
