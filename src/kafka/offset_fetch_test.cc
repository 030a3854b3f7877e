// OffsetFetch: named topics against a null array (all, v2+; refused in v1), golden v1, v5 and
// flexible v6/v7 requests and responses (group error from v2, throttle time from v3, leader
// epoch from v5, compact fields and tagged fields from v6, require_stable in v7), round trips at
// every version, and refusal of other versions.
#include "kafka/offset_fetch.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

TEST(OffsetFetchTest, DecodesV1Request) {
  const std::string body = Hex("0001 67 | 00000001 | 0001 74 | 00000002 00000000 00000001");
  Reader reader(body);
  auto request = DecodeOffsetFetchRequest(reader, 1);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->group_id, "g");
  ASSERT_TRUE(request->topics.has_value());
  EXPECT_EQ(*request->topics, (std::vector<OffsetFetchTopic>{{"t", {0, 1}}}));
  EXPECT_EQ(testing::EncodeToString(*request, 1, EncodeOffsetFetchRequest), body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeOffsetFetchRequest(r, 1); });
}

TEST(OffsetFetchTest, V1NullTopicsIsCorruption) {
  const std::string body = Hex("0001 67 | ffffffff");
  Reader reader(body);
  EXPECT_EQ(DecodeOffsetFetchRequest(reader, 1).status(),
            Status::Corruption("OffsetFetch request: null ARRAY at byte 3"));
}

TEST(OffsetFetchTest, V5NullTopicsMeansAll) {
  const std::string body = Hex("0001 67 | ffffffff");
  Reader reader(body);
  auto request = DecodeOffsetFetchRequest(reader, 5);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->topics, std::nullopt);
  EXPECT_EQ(testing::EncodeToString(*request, 5, EncodeOffsetFetchRequest), body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeOffsetFetchRequest(r, 5); });
}

TEST(OffsetFetchTest, DecodesV5NamedTopics) {
  const std::string body = Hex("0001 67 | 00000002 | 0001 74 00000001 00000003 | 0001 75 00000000");
  Reader reader(body);
  auto request = DecodeOffsetFetchRequest(reader, 5);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  ASSERT_TRUE(request->topics.has_value());
  EXPECT_EQ(*request->topics, (std::vector<OffsetFetchTopic>{{"t", {3}}, {"u", {}}}));
  EXPECT_EQ(testing::EncodeToString(*request, 5, EncodeOffsetFetchRequest), body);
}

TEST(OffsetFetchTest, RequestRoundTripsAtEveryVersion) {
  OffsetFetchRequest named;
  named.group_id = "orders";
  named.topics = {{"a", {0, 1, 2}}, {"b", {}}};
  OffsetFetchRequest all;
  all.group_id = "orders";
  all.topics.reset();
  OffsetFetchRequest stable = named;
  stable.require_stable = true;
  for (int16_t v = 1; v <= 7; ++v) {
    testing::ExpectRoundTrip(named, named, v, EncodeOffsetFetchRequest, DecodeOffsetFetchRequest);
    if (v >= 2) {
      testing::ExpectRoundTrip(all, all, v, EncodeOffsetFetchRequest, DecodeOffsetFetchRequest);
    }
    testing::ExpectRoundTrip(stable, v >= 7 ? stable : named, v, EncodeOffsetFetchRequest,
                             DecodeOffsetFetchRequest);
  }
}

// v6 and later (KIP-482): compact strings and arrays (length + 1 as an unsigned varint, 0 for
// null), and a tagged-field section after each struct, whose unknown fields are skipped.
TEST(OffsetFetchTest, DecodesFlexibleV7Request) {
  const std::string body = Hex("02 67 | 02 | 02 74 03 00000000 00000001 00 | 01 | 00");
  Reader reader(body);
  auto request = DecodeOffsetFetchRequest(reader, 7);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->group_id, "g");
  ASSERT_TRUE(request->topics.has_value());
  EXPECT_EQ(*request->topics, (std::vector<OffsetFetchTopic>{{"t", {0, 1}}}));
  EXPECT_TRUE(request->require_stable);
  EXPECT_EQ(testing::EncodeToString(*request, 7, EncodeOffsetFetchRequest), body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeOffsetFetchRequest(r, 7); });
}

TEST(OffsetFetchTest, FlexibleNullTopicsAndUnknownTaggedFields) {
  // v6: null topics (compact 0), then a tagged-field section holding tag 5 of two bytes.
  const std::string body = Hex("02 67 | 00 | 01 05 02 abcd");
  Reader reader(body);
  auto request = DecodeOffsetFetchRequest(reader, 6);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->topics, std::nullopt);
  EXPECT_FALSE(request->require_stable);
  EXPECT_EQ(testing::ToHex(testing::EncodeToString(*request, 6, EncodeOffsetFetchRequest)),
            testing::ToHex(Hex("02 67 00 00")));
}

TEST(OffsetFetchTest, UnsupportedVersions) {
  const std::string body = Hex("0001 67 00000000");
  for (int16_t v : {int16_t{0}, int16_t{8}, int16_t{9}}) {
    Reader reader(body);
    EXPECT_EQ(DecodeOffsetFetchRequest(reader, v).status().code(), StatusCode::kNotSupported) << v;
    Reader response_reader(body);
    EXPECT_EQ(DecodeOffsetFetchResponse(response_reader, v).status().code(),
              StatusCode::kNotSupported)
        << v;
  }
  Reader reader(body);
  EXPECT_EQ(DecodeOffsetFetchRequest(reader, 8).status(),
            Status::NotSupported("OffsetFetch v8 is not supported (v1-7)"));
}

OffsetFetchResponse SampleResponse() {
  OffsetFetchResponse response;
  response.throttle_time_ms = 3;
  OffsetFetchTopicResponse topic;
  topic.name = "t";
  topic.partitions = {{0, 42, 5, "m", ErrorCode::kNone},
                      {1, -1, -1, std::nullopt, ErrorCode::kNone}};
  response.topics = {topic};
  response.error_code = ErrorCode::kCoordinatorLoadInProgress;
  return response;
}

TEST(OffsetFetchTest, ResponseGoldenBytes) {
  EXPECT_EQ(testing::ToHex(testing::EncodeToString(SampleResponse(), 1, EncodeOffsetFetchResponse)),
            testing::ToHex(Hex("00000001 | 0001 74 | 00000002 |"
                               "00000000 000000000000002a 0001 6d 0000 |"
                               "00000001 ffffffffffffffff ffff 0000")));
  EXPECT_EQ(testing::ToHex(testing::EncodeToString(SampleResponse(), 5, EncodeOffsetFetchResponse)),
            testing::ToHex(Hex("00000003 | 00000001 | 0001 74 | 00000002 |"
                               "00000000 000000000000002a 00000005 0001 6d 0000 |"
                               "00000001 ffffffffffffffff ffffffff ffff 0000 | 000e")));
  const std::string flexible =
      Hex("00000003 | 02 | 02 74 | 03 |"
          "00000000 000000000000002a 00000005 02 6d 0000 00 |"
          "00000001 ffffffffffffffff ffffffff 00 0000 00 | 00 | 000e 00");
  for (int16_t v : {int16_t{6}, int16_t{7}}) {
    EXPECT_EQ(
        testing::ToHex(testing::EncodeToString(SampleResponse(), v, EncodeOffsetFetchResponse)),
        testing::ToHex(flexible))
        << v;
  }
}

TEST(OffsetFetchTest, ResponseRoundTripsAtEveryVersion) {
  for (int16_t v = 1; v <= 7; ++v) {
    OffsetFetchResponse expected = SampleResponse();
    if (v < 3) expected.throttle_time_ms = 0;
    if (v < 2) expected.error_code = ErrorCode::kNone;
    for (OffsetFetchTopicResponse& t : expected.topics) {
      for (OffsetFetchPartitionResponse& p : t.partitions) {
        if (v < 5) p.committed_leader_epoch = -1;
      }
    }
    testing::ExpectRoundTrip(SampleResponse(), expected, v, EncodeOffsetFetchResponse,
                             DecodeOffsetFetchResponse);
  }
}

}  // namespace
}  // namespace higgins::kafka
