// Heartbeat: golden v0 and v3 requests and responses (throttle time from v1, static
// membership from v3), round trips at every version, and refusal of other versions.
#include "kafka/heartbeat.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

TEST(HeartbeatTest, DecodesV0Request) {
  const std::string body = Hex("0001 67 | 00000003 | 0002 6d31");
  Reader reader(body);
  auto request = DecodeHeartbeatRequest(reader, 0);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(*request, (HeartbeatRequest{"g", 3, "m1", std::nullopt}));
  EXPECT_EQ(testing::EncodeToString(*request, 0, EncodeHeartbeatRequest), body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeHeartbeatRequest(r, 0); });
}

TEST(HeartbeatTest, DecodesV3Request) {
  // A dynamic member: group_instance_id null.
  const std::string body = Hex("0001 67 | 00000003 | 0002 6d31 | ffff");
  Reader reader(body);
  auto request = DecodeHeartbeatRequest(reader, 3);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(*request, (HeartbeatRequest{"g", 3, "m1", std::nullopt}));
  EXPECT_EQ(testing::EncodeToString(*request, 3, EncodeHeartbeatRequest), body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeHeartbeatRequest(r, 3); });
}

TEST(HeartbeatTest, V0BodyReadAsV3IsCorruption) {
  const std::string body = Hex("0001 67 | 00000003 | 0002 6d31");
  Reader reader(body);
  EXPECT_EQ(DecodeHeartbeatRequest(reader, 3).status(),
            Status::Corruption("Heartbeat request: truncated STRING length at byte 11"));
}

TEST(HeartbeatTest, RequestRoundTripsAtEveryVersion) {
  const HeartbeatRequest request{"orders", 7, "m-1", "host-a"};
  for (int16_t v = 0; v <= 3; ++v) {
    HeartbeatRequest expected = request;
    if (v < 3) expected.group_instance_id.reset();
    testing::ExpectRoundTrip(request, expected, v, EncodeHeartbeatRequest, DecodeHeartbeatRequest);
  }
}

TEST(HeartbeatTest, UnsupportedVersions) {
  const std::string body = Hex("0001 67 00000003 0000 ffff");
  for (int16_t v : {int16_t{-1}, int16_t{4}}) {
    Reader reader(body);
    EXPECT_EQ(DecodeHeartbeatRequest(reader, v).status().code(), StatusCode::kNotSupported) << v;
    Reader response_reader(body);
    EXPECT_EQ(DecodeHeartbeatResponse(response_reader, v).status().code(),
              StatusCode::kNotSupported)
        << v;
  }
  Reader reader(body);
  EXPECT_EQ(DecodeHeartbeatRequest(reader, 4).status(),
            Status::NotSupported("Heartbeat v4 is not supported (v0-3)"));
}

TEST(HeartbeatTest, ResponseGoldenBytes) {
  const HeartbeatResponse response{1, ErrorCode::kRebalanceInProgress};
  EXPECT_EQ(testing::ToHex(testing::EncodeToString(response, 0, EncodeHeartbeatResponse)),
            testing::ToHex(Hex("001b")));
  EXPECT_EQ(testing::ToHex(testing::EncodeToString(response, 3, EncodeHeartbeatResponse)),
            testing::ToHex(Hex("00000001 | 001b")));
}

TEST(HeartbeatTest, ResponseRoundTripsAtEveryVersion) {
  const HeartbeatResponse response{1, ErrorCode::kRebalanceInProgress};
  for (int16_t v = 0; v <= 3; ++v) {
    HeartbeatResponse expected = response;
    if (v < 1) expected.throttle_time_ms = 0;
    testing::ExpectRoundTrip(response, expected, v, EncodeHeartbeatResponse,
                             DecodeHeartbeatResponse);
  }
}

}  // namespace
}  // namespace higgins::kafka
