// ListOffsets: golden v1 and v2 requests and responses, and malformed input.
#include "kafka/list_offsets.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

TEST(ListOffsetsTest, DecodesV1Request) {
  // Consumer, topic "test", partition 0 earliest (-2), partition 1 latest (-1).
  const std::string body =
      Hex("ffffffff | 00000001 0004 74657374 | 00000002 |"
          "00000000 fffffffffffffffe | 00000001 ffffffffffffffff");
  Reader reader(body);
  auto request = DecodeListOffsetsRequest(reader, 1);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->replica_id, -1);
  EXPECT_EQ(request->isolation_level, 0);
  ASSERT_EQ(request->topics.size(), 1u);
  EXPECT_EQ(request->topics[0].name, "test");
  EXPECT_EQ(request->topics[0].partitions,
            (std::vector<ListOffsetsPartition>{{0, kEarliestTimestamp}, {1, kLatestTimestamp}}));
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeListOffsetsRequest(r, 1); });
}

TEST(ListOffsetsTest, DecodesV2Request) {
  const std::string body =
      Hex("ffffffff | 01 | 00000001 0001 74 | 00000001 | 00000000 0000018bcfe56800");
  Reader reader(body);
  auto request = DecodeListOffsetsRequest(reader, 2);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->isolation_level, 1);
  EXPECT_EQ(request->topics[0].partitions[0].timestamp, 1700000000000);

  std::string out;
  Writer writer(&out);
  EncodeListOffsetsRequest(*request, 2, writer);
  EXPECT_EQ(out, body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeListOffsetsRequest(r, 2); });
}

TEST(ListOffsetsTest, V2BodyReadAsV1IsCorruption) {
  const std::string body =
      Hex("ffffffff | 01 | 00000001 0001 74 | 00000001 | 00000000 0000018bcfe56800");
  Reader reader(body);
  EXPECT_EQ(DecodeListOffsetsRequest(reader, 1).status().code(), StatusCode::kCorruption);
}

TEST(ListOffsetsTest, UnsupportedVersions) {
  const std::string body = Hex("ffffffff 00000000");
  for (int16_t v : {int16_t{0}, int16_t{3}}) {
    Reader reader(body);
    EXPECT_EQ(DecodeListOffsetsRequest(reader, v).status().code(), StatusCode::kNotSupported);
  }
}

TEST(ListOffsetsTest, ResponseGoldenBytes) {
  ListOffsetsResponse response;
  response.throttle_time_ms = 2;
  response.topics = {{"t", {{0, ErrorCode::kNone, -1, 0}, {1, ErrorCode::kNone, 5, 17}}}};
  std::string v1, v2;
  Writer w1(&v1), w2(&v2);
  EncodeListOffsetsResponse(response, 1, w1);
  EncodeListOffsetsResponse(response, 2, w2);
  const std::string topics =
      Hex("00000001 0001 74 | 00000002 |"
          "00000000 0000 ffffffffffffffff 0000000000000000 |"
          "00000001 0000 0000000000000005 0000000000000011");
  EXPECT_EQ(testing::ToHex(v1), testing::ToHex(topics));
  EXPECT_EQ(testing::ToHex(v2), testing::ToHex(Hex("00000002") + topics));

  Reader reader(v2);
  auto back = DecodeListOffsetsResponse(reader, 2);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, response);
  testing::ExpectEveryPrefixFails(v1, [](Reader& r) { return DecodeListOffsetsResponse(r, 1); });
}

}  // namespace
}  // namespace higgins::kafka
