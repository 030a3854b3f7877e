// OffsetCommit: golden v2 and v7 requests and responses (retention time only in v2-4,
// throttle time from v3, leader epoch from v6, static membership from v7), round trips at
// every version, and refusal of other versions.
#include "kafka/offset_commit.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

TEST(OffsetCommitTest, DecodesV2Request) {
  // Group "g", generation 3, member "m1", retention 1 day; topic "t": partition 0 at 42 with
  // null metadata, partition 1 at 7 with empty metadata.
  const std::string body =
      Hex("0001 67 | 00000003 | 0002 6d31 | 0000000005265c00 | 00000001 | 0001 74 |"
          "00000002 | 00000000 000000000000002a ffff | 00000001 0000000000000007 0000");
  Reader reader(body);
  auto request = DecodeOffsetCommitRequest(reader, 2);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->group_id, "g");
  EXPECT_EQ(request->generation_id, 3);
  EXPECT_EQ(request->member_id, "m1");
  EXPECT_EQ(request->group_instance_id, std::nullopt);
  EXPECT_EQ(request->retention_time_ms, 86400000);
  ASSERT_EQ(request->topics.size(), 1u);
  EXPECT_EQ(request->topics[0].name, "t");
  EXPECT_EQ(request->topics[0].partitions,
            (std::vector<OffsetCommitPartition>{{0, 42, -1, std::nullopt}, {1, 7, -1, ""}}));
  EXPECT_EQ(testing::EncodeToString(*request, 2, EncodeOffsetCommitRequest), body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeOffsetCommitRequest(r, 2); });
}

TEST(OffsetCommitTest, DecodesV7Request) {
  // As v2 with instance "i1" and no retention time; partition 0 has leader epoch 5.
  const std::string body =
      Hex("0001 67 | 00000003 | 0002 6d31 | 0002 6931 | 00000001 | 0001 74 | 00000002 |"
          "00000000 000000000000002a 00000005 ffff | 00000001 0000000000000007 ffffffff 0001 6d");
  Reader reader(body);
  auto request = DecodeOffsetCommitRequest(reader, 7);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->group_instance_id, "i1");
  EXPECT_EQ(request->retention_time_ms, -1);
  ASSERT_EQ(request->topics.size(), 1u);
  EXPECT_EQ(request->topics[0].partitions,
            (std::vector<OffsetCommitPartition>{{0, 42, 5, std::nullopt}, {1, 7, -1, "m"}}));
  EXPECT_EQ(testing::EncodeToString(*request, 7, EncodeOffsetCommitRequest), body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeOffsetCommitRequest(r, 7); });
}

TEST(OffsetCommitTest, RequestRoundTripsAtEveryVersion) {
  OffsetCommitRequest request;
  request.group_id = "orders";
  request.generation_id = 4;
  request.member_id = "m-1";
  request.group_instance_id = "host-a";
  request.retention_time_ms = 3600000;
  request.topics = {{"a", {{0, 10, 2, "meta"}, {3, 0, 2, std::nullopt}}}, {"b", {}}};
  for (int16_t v = 2; v <= 7; ++v) {
    OffsetCommitRequest expected = request;
    if (v < 7) expected.group_instance_id.reset();
    if (v > 4) expected.retention_time_ms = -1;
    for (OffsetCommitTopic& t : expected.topics) {
      for (OffsetCommitPartition& p : t.partitions) {
        if (v < 6) p.committed_leader_epoch = -1;
      }
    }
    testing::ExpectRoundTrip(request, expected, v, EncodeOffsetCommitRequest,
                             DecodeOffsetCommitRequest);
  }
}

TEST(OffsetCommitTest, UnsupportedVersions) {
  const std::string body = Hex("0001 67 00000003 0000 ffffffffffffffff 00000000");
  for (int16_t v : {int16_t{0}, int16_t{1}, int16_t{8}}) {
    Reader reader(body);
    EXPECT_EQ(DecodeOffsetCommitRequest(reader, v).status().code(), StatusCode::kNotSupported) << v;
    Reader response_reader(body);
    EXPECT_EQ(DecodeOffsetCommitResponse(response_reader, v).status().code(),
              StatusCode::kNotSupported)
        << v;
  }
  Reader reader(body);
  EXPECT_EQ(DecodeOffsetCommitRequest(reader, 1).status(),
            Status::NotSupported("OffsetCommit v1 is not supported (v2-7)"));
}

OffsetCommitResponse SampleResponse() {
  OffsetCommitResponse response;
  response.throttle_time_ms = 9;
  response.topics = {{"t", {{0, ErrorCode::kNone}, {1, ErrorCode::kOffsetMetadataTooLarge}}}};
  return response;
}

TEST(OffsetCommitTest, ResponseGoldenBytes) {
  const std::string topics = Hex("00000001 | 0001 74 | 00000002 | 00000000 0000 | 00000001 000c");
  EXPECT_EQ(
      testing::ToHex(testing::EncodeToString(SampleResponse(), 2, EncodeOffsetCommitResponse)),
      testing::ToHex(topics));
  EXPECT_EQ(
      testing::ToHex(testing::EncodeToString(SampleResponse(), 7, EncodeOffsetCommitResponse)),
      testing::ToHex(Hex("00000009") + topics));
}

TEST(OffsetCommitTest, ResponseRoundTripsAtEveryVersion) {
  for (int16_t v = 2; v <= 7; ++v) {
    OffsetCommitResponse expected = SampleResponse();
    if (v < 3) expected.throttle_time_ms = 0;
    testing::ExpectRoundTrip(SampleResponse(), expected, v, EncodeOffsetCommitResponse,
                             DecodeOffsetCommitResponse);
  }
}

}  // namespace
}  // namespace higgins::kafka
