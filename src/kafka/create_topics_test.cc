// CreateTopics: golden v0 and v4 requests and responses (validate_only and error messages
// from v1, throttle time from v2), round trips at every version, and refusal of others.
#include "kafka/create_topics.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

// Topic "t": 3 partitions, replication 1, configs a=1 and b=null. Topic "u": defaults (-1),
// partition 0 assigned to brokers 1 and 2, no configs.
constexpr std::string_view kTopics =
    "00000002 |"
    "0001 74 00000003 0001 | 00000000 | 00000002 0001 61 0001 31 0001 62 ffff |"
    "0001 75 ffffffff ffff | 00000001 00000000 00000002 00000001 00000002 | 00000000";

void ExpectSampleTopics(const CreateTopicsRequest& request) {
  ASSERT_EQ(request.topics.size(), 2u);
  const CreateTopicsTopic& t = request.topics[0];
  EXPECT_EQ(t.name, "t");
  EXPECT_EQ(t.num_partitions, 3);
  EXPECT_EQ(t.replication_factor, 1);
  EXPECT_TRUE(t.assignments.empty());
  EXPECT_EQ(t.configs, (std::vector<CreateTopicsConfig>{{"a", "1"}, {"b", std::nullopt}}));
  const CreateTopicsTopic& u = request.topics[1];
  EXPECT_EQ(u.name, "u");
  EXPECT_EQ(u.num_partitions, -1);
  EXPECT_EQ(u.replication_factor, -1);
  EXPECT_EQ(u.assignments, (std::vector<CreateTopicsAssignment>{{0, {1, 2}}}));
  EXPECT_TRUE(u.configs.empty());
}

TEST(CreateTopicsTest, DecodesV0Request) {
  const std::string body = Hex(std::string(kTopics) + "| 00007530");
  Reader reader(body);
  auto request = DecodeCreateTopicsRequest(reader, 0);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  ExpectSampleTopics(*request);
  EXPECT_EQ(request->timeout_ms, 30000);
  EXPECT_FALSE(request->validate_only);
  EXPECT_EQ(testing::EncodeToString(*request, 0, EncodeCreateTopicsRequest), body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeCreateTopicsRequest(r, 0); });
}

TEST(CreateTopicsTest, DecodesV4Request) {
  const std::string body = Hex(std::string(kTopics) + "| 00007530 | 01");
  Reader reader(body);
  auto request = DecodeCreateTopicsRequest(reader, 4);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  ExpectSampleTopics(*request);
  EXPECT_EQ(request->timeout_ms, 30000);
  EXPECT_TRUE(request->validate_only);
  EXPECT_EQ(testing::EncodeToString(*request, 4, EncodeCreateTopicsRequest), body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeCreateTopicsRequest(r, 4); });
}

TEST(CreateTopicsTest, TopicCountBeyondTheBytesIsCorruption) {
  // 1000 topics announced in 10 bytes: refused before anything is reserved.
  const std::string body = Hex("000003e8 | 0001 74 00000001 0001 00000000");
  Reader reader(body);
  EXPECT_EQ(DecodeCreateTopicsRequest(reader, 0).status().code(), StatusCode::kCorruption);
}

TEST(CreateTopicsTest, RequestRoundTripsAtEveryVersion) {
  CreateTopicsRequest request;
  request.topics = {{"events", 6, 3, {}, {{"cleanup.policy", "compact"}}},
                    {"orders", -1, -1, {{0, {0}}, {1, {0, 1}}}, {{"retention.ms", std::nullopt}}}};
  request.timeout_ms = 5000;
  request.validate_only = true;
  for (int16_t v = 0; v <= 4; ++v) {
    CreateTopicsRequest expected = request;
    if (v < 1) expected.validate_only = false;
    testing::ExpectRoundTrip(request, expected, v, EncodeCreateTopicsRequest,
                             DecodeCreateTopicsRequest);
  }
}

TEST(CreateTopicsTest, UnsupportedVersions) {
  const std::string body = Hex("00000000 00007530 00");
  for (int16_t v : {int16_t{-1}, int16_t{5}, int16_t{7}}) {
    Reader reader(body);
    EXPECT_EQ(DecodeCreateTopicsRequest(reader, v).status().code(), StatusCode::kNotSupported) << v;
    Reader response_reader(body);
    EXPECT_EQ(DecodeCreateTopicsResponse(response_reader, v).status().code(),
              StatusCode::kNotSupported)
        << v;
  }
  Reader reader(body);
  EXPECT_EQ(DecodeCreateTopicsRequest(reader, 5).status(),
            Status::NotSupported("CreateTopics v5 is not supported (v0-4)"));
}

CreateTopicsResponse SampleResponse() {
  CreateTopicsResponse response;
  response.throttle_time_ms = 2;
  response.topics = {{"t", ErrorCode::kNone, std::nullopt},
                     {"u", ErrorCode::kTopicAlreadyExists, "exists"}};
  return response;
}

TEST(CreateTopicsTest, ResponseGoldenBytes) {
  EXPECT_EQ(
      testing::ToHex(testing::EncodeToString(SampleResponse(), 0, EncodeCreateTopicsResponse)),
      testing::ToHex(Hex("00000002 | 0001 74 0000 | 0001 75 0024")));
  EXPECT_EQ(
      testing::ToHex(testing::EncodeToString(SampleResponse(), 4, EncodeCreateTopicsResponse)),
      testing::ToHex(
          Hex("00000002 | 00000002 | 0001 74 0000 ffff | 0001 75 0024 0006 657869737473")));
}

TEST(CreateTopicsTest, ResponseRoundTripsAtEveryVersion) {
  for (int16_t v = 0; v <= 4; ++v) {
    CreateTopicsResponse expected = SampleResponse();
    if (v < 2) expected.throttle_time_ms = 0;
    for (CreateTopicsTopicResult& t : expected.topics) {
      if (v < 1) t.error_message.reset();
    }
    testing::ExpectRoundTrip(SampleResponse(), expected, v, EncodeCreateTopicsResponse,
                             DecodeCreateTopicsResponse);
  }
}

}  // namespace
}  // namespace higgins::kafka
