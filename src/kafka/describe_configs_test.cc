// DescribeConfigs: all keys (null) against named keys, golden v0 and v2 requests and
// responses (v0's is_default against v1's config source and synonyms), round trips at every
// version, and refusal of other versions.
#include "kafka/describe_configs.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

// Topic "t" with every key (null), broker "0" with key "a".
constexpr std::string_view kResources =
    "00000002 | 02 0001 74 ffffffff | 04 0001 30 00000001 0001 61";

TEST(DescribeConfigsTest, DecodesV0Request) {
  const std::string body = Hex(kResources);
  Reader reader(body);
  auto request = DecodeDescribeConfigsRequest(reader, 0);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  ASSERT_EQ(request->resources.size(), 2u);
  EXPECT_EQ(request->resources[0],
            (DescribeConfigsResource{kResourceTypeTopic, "t", std::nullopt}));
  EXPECT_EQ(request->resources[1], (DescribeConfigsResource{kResourceTypeBroker, "0",
                                                            std::vector<std::string_view>{"a"}}));
  EXPECT_FALSE(request->include_synonyms);
  EXPECT_EQ(testing::EncodeToString(*request, 0, EncodeDescribeConfigsRequest), body);
  testing::ExpectEveryPrefixFails(body,
                                  [](Reader& r) { return DecodeDescribeConfigsRequest(r, 0); });
}

TEST(DescribeConfigsTest, DecodesV2Request) {
  const std::string body = Hex(std::string(kResources) + "| 01");
  Reader reader(body);
  auto request = DecodeDescribeConfigsRequest(reader, 2);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  ASSERT_EQ(request->resources.size(), 2u);
  EXPECT_EQ(request->resources[0].configuration_keys, std::nullopt);
  EXPECT_TRUE(request->include_synonyms);
  EXPECT_EQ(testing::EncodeToString(*request, 2, EncodeDescribeConfigsRequest), body);
  testing::ExpectEveryPrefixFails(body,
                                  [](Reader& r) { return DecodeDescribeConfigsRequest(r, 2); });
}

TEST(DescribeConfigsTest, RequestRoundTripsAtEveryVersion) {
  DescribeConfigsRequest request;
  request.resources = {{kResourceTypeTopic, "events", std::vector<std::string_view>{}},
                       {kResourceTypeTopic, "orders", std::nullopt},
                       {kResourceTypeBroker, "0",
                        std::vector<std::string_view>{"log.retention.ms", "message.max.bytes"}}};
  request.include_synonyms = true;
  for (int16_t v = 0; v <= 2; ++v) {
    DescribeConfigsRequest expected = request;
    if (v < 1) expected.include_synonyms = false;
    testing::ExpectRoundTrip(request, expected, v, EncodeDescribeConfigsRequest,
                             DecodeDescribeConfigsRequest);
  }
}

TEST(DescribeConfigsTest, UnsupportedVersions) {
  const std::string body = Hex("00000000 00");
  for (int16_t v : {int16_t{-1}, int16_t{3}, int16_t{4}}) {
    Reader reader(body);
    EXPECT_EQ(DecodeDescribeConfigsRequest(reader, v).status().code(), StatusCode::kNotSupported)
        << v;
    Reader response_reader(body);
    EXPECT_EQ(DecodeDescribeConfigsResponse(response_reader, v).status().code(),
              StatusCode::kNotSupported)
        << v;
  }
  Reader reader(body);
  EXPECT_EQ(DecodeDescribeConfigsRequest(reader, 3).status(),
            Status::NotSupported("DescribeConfigs v3 is not supported (v0-2)"));
}

DescribeConfigsResponse SampleResponse() {
  DescribeConfigsEntry a;
  a.name = "a";
  a.value = "1";
  a.is_default = true;
  a.config_source = kConfigSourceDefaultConfig;
  a.synonyms = {{"a", "1", kConfigSourceDefaultConfig}};
  DescribeConfigsEntry s;
  s.name = "s";
  s.read_only = true;
  s.config_source = kConfigSourceTopicConfig;
  s.is_sensitive = true;
  DescribeConfigsResult result;
  result.resource_type = kResourceTypeTopic;
  result.resource_name = "t";
  result.configs = {a, s};
  DescribeConfigsResponse response;
  response.throttle_time_ms = 8;
  response.results = {result};
  return response;
}

TEST(DescribeConfigsTest, ResponseGoldenBytes) {
  EXPECT_EQ(
      testing::ToHex(testing::EncodeToString(SampleResponse(), 0, EncodeDescribeConfigsResponse)),
      testing::ToHex(Hex("00000008 | 00000001 | 0000 ffff 02 0001 74 | 00000002 |"
                         "0001 61 0001 31 00 01 00 |"  // a = 1, default
                         "0001 73 ffff 01 00 01")));   // s, read-only, sensitive
  EXPECT_EQ(
      testing::ToHex(testing::EncodeToString(SampleResponse(), 2, EncodeDescribeConfigsResponse)),
      testing::ToHex(Hex("00000008 | 00000001 | 0000 ffff 02 0001 74 | 00000002 |"
                         "0001 61 0001 31 00 05 00 | 00000001 0001 61 0001 31 05 |"
                         "0001 73 ffff 01 01 01 | 00000000")));
}

TEST(DescribeConfigsTest, DecodesV0ErrorResult) {
  // Broker "7" unknown: error 42 (INVALID_REQUEST) with a message, no configs.
  const std::string body = Hex("00000000 | 00000001 | 002a 0001 78 04 0001 37 | 00000000");
  Reader reader(body);
  auto response = DecodeDescribeConfigsResponse(reader, 0);
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  ASSERT_EQ(response->results.size(), 1u);
  EXPECT_EQ(response->results[0].error_code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(response->results[0].error_message, "x");
  EXPECT_EQ(response->results[0].resource_type, kResourceTypeBroker);
  EXPECT_EQ(response->results[0].resource_name, "7");
  EXPECT_TRUE(response->results[0].configs.empty());
}

TEST(DescribeConfigsTest, ResponseRoundTripsAtEveryVersion) {
  for (int16_t v = 0; v <= 2; ++v) {
    DescribeConfigsResponse expected = SampleResponse();
    for (DescribeConfigsResult& r : expected.results) {
      for (DescribeConfigsEntry& e : r.configs) {
        if (v == 0) {
          e.config_source = -1;
          e.synonyms.clear();
        } else {
          e.is_default = false;
        }
      }
    }
    testing::ExpectRoundTrip(SampleResponse(), expected, v, EncodeDescribeConfigsResponse,
                             DecodeDescribeConfigsResponse);
  }
}

}  // namespace
}  // namespace higgins::kafka
