// FindCoordinator: golden v0 and v2 requests and responses, the key type and error message
// added in v1, round trips at every version, and refusal of other versions.
#include "kafka/find_coordinator.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

TEST(FindCoordinatorTest, DecodesV0Request) {
  const std::string body = Hex("0002 6731");
  Reader reader(body);
  auto request = DecodeFindCoordinatorRequest(reader, 0);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->key, "g1");
  EXPECT_EQ(request->key_type, kCoordinatorKeyGroup);
  EXPECT_EQ(testing::EncodeToString(*request, 0, EncodeFindCoordinatorRequest), body);
  testing::ExpectEveryPrefixFails(body,
                                  [](Reader& r) { return DecodeFindCoordinatorRequest(r, 0); });
}

TEST(FindCoordinatorTest, DecodesV2TransactionRequest) {
  const std::string body = Hex("0002 6731 | 01");
  Reader reader(body);
  auto request = DecodeFindCoordinatorRequest(reader, 2);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->key, "g1");
  EXPECT_EQ(request->key_type, kCoordinatorKeyTransaction);
  EXPECT_EQ(testing::EncodeToString(*request, 2, EncodeFindCoordinatorRequest), body);
  testing::ExpectEveryPrefixFails(body,
                                  [](Reader& r) { return DecodeFindCoordinatorRequest(r, 2); });
}

TEST(FindCoordinatorTest, V1BodyReadAsV0HasTrailingBytes) {
  const std::string body = Hex("0002 6731 | 00");
  Reader reader(body);
  EXPECT_EQ(DecodeFindCoordinatorRequest(reader, 0).status(),
            Status::Corruption("FindCoordinator request: 1 unread bytes at byte 4"));
}

TEST(FindCoordinatorTest, RequestRoundTripsAtEveryVersion) {
  const FindCoordinatorRequest request{"txn-1", kCoordinatorKeyTransaction};
  for (int16_t v = 0; v <= 2; ++v) {
    FindCoordinatorRequest expected = request;
    if (v < 1) expected.key_type = kCoordinatorKeyGroup;
    testing::ExpectRoundTrip(request, expected, v, EncodeFindCoordinatorRequest,
                             DecodeFindCoordinatorRequest);
  }
}

TEST(FindCoordinatorTest, UnsupportedVersions) {
  const std::string body = Hex("0002 6731 00");
  for (int16_t v : {int16_t{-1}, int16_t{3}, int16_t{4}}) {
    Reader reader(body);
    EXPECT_EQ(DecodeFindCoordinatorRequest(reader, v).status().code(), StatusCode::kNotSupported)
        << v;
    Reader response_reader(body);
    EXPECT_EQ(DecodeFindCoordinatorResponse(response_reader, v).status().code(),
              StatusCode::kNotSupported)
        << v;
  }
  Reader reader(body);
  EXPECT_EQ(DecodeFindCoordinatorRequest(reader, 3).status(),
            Status::NotSupported("FindCoordinator v3 is not supported (v0-2)"));
}

FindCoordinatorResponse SampleResponse() {
  FindCoordinatorResponse response;
  response.throttle_time_ms = 7;
  response.node_id = 0;
  response.host = "localhost";
  response.port = 9092;
  return response;
}

TEST(FindCoordinatorTest, ResponseGoldenBytes) {
  EXPECT_EQ(
      testing::ToHex(testing::EncodeToString(SampleResponse(), 0, EncodeFindCoordinatorResponse)),
      testing::ToHex(Hex("0000 | 00000000 | 0009 6c6f63616c686f7374 | 00002384")));
  EXPECT_EQ(
      testing::ToHex(testing::EncodeToString(SampleResponse(), 2, EncodeFindCoordinatorResponse)),
      testing::ToHex(Hex("00000007 | 0000 | ffff | 00000000 | 0009 6c6f63616c686f7374 |"
                         "00002384")));
}

TEST(FindCoordinatorTest, DecodesV1ErrorResponse) {
  const std::string body = Hex("00000000 | 000f | 0004 646f776e | ffffffff | 0000 | ffffffff");
  Reader reader(body);
  auto response = DecodeFindCoordinatorResponse(reader, 1);
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ(response->error_code, ErrorCode::kCoordinatorNotAvailable);
  EXPECT_EQ(response->error_message, "down");
  EXPECT_EQ(response->node_id, -1);
  EXPECT_EQ(response->host, "");
  EXPECT_EQ(response->port, -1);
  testing::ExpectEveryPrefixFails(body,
                                  [](Reader& r) { return DecodeFindCoordinatorResponse(r, 1); });
}

TEST(FindCoordinatorTest, ResponseRoundTripsAtEveryVersion) {
  FindCoordinatorResponse response = SampleResponse();
  response.error_code = ErrorCode::kNotCoordinator;
  response.error_message = "moved";
  for (int16_t v = 0; v <= 2; ++v) {
    FindCoordinatorResponse expected = response;
    if (v < 1) {
      expected.throttle_time_ms = 0;
      expected.error_message.reset();
    }
    testing::ExpectRoundTrip(response, expected, v, EncodeFindCoordinatorResponse,
                             DecodeFindCoordinatorResponse);
  }
}

}  // namespace
}  // namespace higgins::kafka
