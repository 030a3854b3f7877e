// InitProducerId: golden v0 (idempotent) and v1 (transactional) requests and responses, round
// trips at every version, and refusal of other versions.
#include "kafka/init_producer_id.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

TEST(InitProducerIdTest, DecodesV0IdempotentRequest) {
  const std::string body = Hex("ffff | 0000ea60");
  Reader reader(body);
  auto request = DecodeInitProducerIdRequest(reader, 0);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->transactional_id, std::nullopt);
  EXPECT_EQ(request->transaction_timeout_ms, 60000);
  EXPECT_EQ(testing::EncodeToString(*request, 0, EncodeInitProducerIdRequest), body);
  testing::ExpectEveryPrefixFails(body,
                                  [](Reader& r) { return DecodeInitProducerIdRequest(r, 0); });
}

TEST(InitProducerIdTest, DecodesV1TransactionalRequest) {
  const std::string body = Hex("0002 7478 | 0000ea60");
  Reader reader(body);
  auto request = DecodeInitProducerIdRequest(reader, 1);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->transactional_id, "tx");
  EXPECT_EQ(request->transaction_timeout_ms, 60000);
  EXPECT_EQ(testing::EncodeToString(*request, 1, EncodeInitProducerIdRequest), body);
  testing::ExpectEveryPrefixFails(body,
                                  [](Reader& r) { return DecodeInitProducerIdRequest(r, 1); });
}

TEST(InitProducerIdTest, NegativeTransactionalIdLengthIsCorruption) {
  const std::string body = Hex("fffe | 0000ea60");
  Reader reader(body);
  EXPECT_EQ(DecodeInitProducerIdRequest(reader, 0).status(),
            Status::Corruption("InitProducerId request: negative STRING length -2 at byte 0"));
}

TEST(InitProducerIdTest, RequestRoundTripsAtEveryVersion) {
  for (int16_t v = 0; v <= 1; ++v) {
    const InitProducerIdRequest idempotent{std::nullopt, 2147483647};
    const InitProducerIdRequest transactional{"orders-tx", 900000};
    testing::ExpectRoundTrip(idempotent, idempotent, v, EncodeInitProducerIdRequest,
                             DecodeInitProducerIdRequest);
    testing::ExpectRoundTrip(transactional, transactional, v, EncodeInitProducerIdRequest,
                             DecodeInitProducerIdRequest);
  }
}

TEST(InitProducerIdTest, UnsupportedVersions) {
  const std::string body = Hex("ffff 0000ea60");
  for (int16_t v : {int16_t{-1}, int16_t{2}, int16_t{5}}) {
    Reader reader(body);
    EXPECT_EQ(DecodeInitProducerIdRequest(reader, v).status().code(), StatusCode::kNotSupported)
        << v;
    Reader response_reader(body);
    EXPECT_EQ(DecodeInitProducerIdResponse(response_reader, v).status().code(),
              StatusCode::kNotSupported)
        << v;
  }
  Reader reader(body);
  EXPECT_EQ(DecodeInitProducerIdRequest(reader, 2).status(),
            Status::NotSupported("InitProducerId v2 is not supported (v0-1)"));
}

TEST(InitProducerIdTest, ResponseGoldenBytesAndRoundTrips) {
  const InitProducerIdResponse response{6, ErrorCode::kNone, 1000, 0};
  const std::string expected = Hex("00000006 | 0000 | 00000000000003e8 | 0000");
  for (int16_t v = 0; v <= 1; ++v) {
    EXPECT_EQ(testing::ToHex(testing::EncodeToString(response, v, EncodeInitProducerIdResponse)),
              testing::ToHex(expected))
        << v;
    testing::ExpectRoundTrip(response, response, v, EncodeInitProducerIdResponse,
                             DecodeInitProducerIdResponse);
  }
  const InitProducerIdResponse refused{0, ErrorCode::kClusterAuthorizationFailed, -1, -1};
  EXPECT_EQ(testing::ToHex(testing::EncodeToString(refused, 1, EncodeInitProducerIdResponse)),
            testing::ToHex(Hex("00000000 | 001f | ffffffffffffffff | ffff")));
}

}  // namespace
}  // namespace higgins::kafka
