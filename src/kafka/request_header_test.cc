// Request and response headers: v1 for classic versions, v2 (tagged fields) for flexible ones,
// and the response header rule that keeps ApiVersions responses at header v0.
#include "kafka/request_header.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"
#include "kafka/versions.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

TEST(RequestHeaderTest, DecodesHeaderV1AndLeavesTheBody) {
  // Metadata v1, correlation id 7, client id "kcat", then a body of one byte.
  const std::string frame = Hex("0003 0001 00000007 0004 6b636174 | ee");
  Reader reader(frame);
  auto header = DecodeRequestHeader(reader);
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  EXPECT_EQ(header->api_key, ApiKey::kMetadata);
  EXPECT_EQ(header->api_version, 1);
  EXPECT_EQ(header->correlation_id, 7);
  EXPECT_EQ(header->client_id, std::optional<std::string_view>("kcat"));
  EXPECT_EQ(reader.position(), 14u);
  EXPECT_EQ(reader.rest(), Hex("ee"));
}

TEST(RequestHeaderTest, NullClientId) {
  const std::string frame = Hex("0000 0003 00000001 ffff");
  Reader reader(frame);
  auto header = DecodeRequestHeader(reader);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->client_id, std::nullopt);
  EXPECT_EQ(reader.remaining(), 0u);
}

TEST(RequestHeaderTest, FlexibleHeaderSkipsTaggedFieldsButKeepsAnInt16ClientId) {
  // ApiVersions v3 (header v2): the client id still has an INT16 length; one tagged field.
  const std::string frame = Hex("0012 0003 0000002a 0002 6964 | 01 00 02 abcd | 05 6c6962");
  Reader reader(frame);
  auto header = DecodeRequestHeader(reader);
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  EXPECT_EQ(header->api_key, ApiKey::kApiVersions);
  EXPECT_EQ(header->correlation_id, 42);
  EXPECT_EQ(header->client_id, std::optional<std::string_view>("id"));
  EXPECT_EQ(reader.rest(), Hex("05 6c6962"));
}

TEST(RequestHeaderTest, UnknownApiKeyStillYieldsTheCorrelationId) {
  const std::string frame = Hex("7fff 0000 00000063 ffff");
  Reader reader(frame);
  auto header = DecodeRequestHeader(reader);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(static_cast<int16_t>(header->api_key), 0x7fff);
  EXPECT_EQ(header->correlation_id, 99);
  EXPECT_FALSE(IsSupported(header->api_key, header->api_version));
}

TEST(RequestHeaderTest, EveryTruncationFails) {
  const std::string frame = Hex("0012 0003 0000002a 0002 6964 00");
  testing::ExpectEveryPrefixFails(frame, [](Reader& r) { return DecodeRequestHeader(r); });
  Reader truncated(std::string_view(frame).substr(0, 7));
  EXPECT_EQ(DecodeRequestHeader(truncated).status(),
            Status::Corruption("request header: truncated INT32 at byte 4"));
}

TEST(RequestHeaderTest, EncodeMatchesDecode) {
  for (const RequestHeader header : {RequestHeader{ApiKey::kFetch, 11, 5, std::string_view("c")},
                                     RequestHeader{ApiKey::kApiVersions, 3, -1, std::nullopt},
                                     RequestHeader{ApiKey::kProduce, 9, 1, std::string_view("")}}) {
    std::string out;
    Writer writer(&out);
    EncodeRequestHeader(header, writer);
    Reader reader(out);
    auto back = DecodeRequestHeader(reader);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, header);
    EXPECT_EQ(reader.remaining(), 0u);
  }
}

TEST(RequestHeaderTest, FlexibleVersionsOfTheSupportedApis) {
  EXPECT_FALSE(IsFlexible(ApiKey::kApiVersions, 2));
  EXPECT_TRUE(IsFlexible(ApiKey::kApiVersions, 3));
  EXPECT_TRUE(IsFlexible(ApiKey::kApiVersions, 4));  // newer than ours: still header v2
  EXPECT_FALSE(IsFlexible(ApiKey::kMetadata, 8));
  EXPECT_TRUE(IsFlexible(ApiKey::kMetadata, 9));
  EXPECT_FALSE(IsFlexible(ApiKey::kProduce, 8));
  EXPECT_TRUE(IsFlexible(ApiKey::kProduce, 9));
  EXPECT_FALSE(IsFlexible(ApiKey::kFetch, 11));
  EXPECT_TRUE(IsFlexible(ApiKey::kFetch, 12));
  EXPECT_FALSE(IsFlexible(ApiKey::kListOffsets, 5));
  EXPECT_TRUE(IsFlexible(ApiKey::kListOffsets, 6));
  EXPECT_FALSE(IsFlexible(ApiKey::kSaslHandshake, 1));
  EXPECT_FALSE(IsFlexible(static_cast<ApiKey>(1000), 50));
  // Among the advertised ranges, only ApiVersions v3 and OffsetFetch v6-7 are flexible.
  for (const ApiVersionRange& range : kSupportedApis) {
    for (int16_t v = range.min_version; v <= range.max_version; ++v) {
      const bool flexible = (range.api_key == ApiKey::kApiVersions && v == 3) ||
                            (range.api_key == ApiKey::kOffsetFetch && v >= 6);
      EXPECT_EQ(IsFlexible(range.api_key, v), flexible) << ApiKeyName(range.api_key) << " v" << v;
    }
  }
}

TEST(RequestHeaderTest, ResponseHeaderV0ForApiVersionsEvenWhenFlexible) {
  std::string out;
  Writer writer(&out);
  EncodeResponseHeader(ApiKey::kApiVersions, 3, 42, writer);
  EXPECT_EQ(out, Hex("0000002a"));
  EXPECT_EQ(ResponseHeaderVersion(ApiKey::kApiVersions, 3), 0);
}

TEST(RequestHeaderTest, ResponseHeaderV1AddsEmptyTaggedFields) {
  std::string out;
  Writer writer(&out);
  EncodeResponseHeader(ApiKey::kMetadata, 9, 1, writer);
  EncodeResponseHeader(ApiKey::kMetadata, 8, 2, writer);
  EXPECT_EQ(out, Hex("00000001 00 | 00000002"));
}

TEST(RequestHeaderTest, SupportedVersionTable) {
  EXPECT_TRUE(IsSupported(ApiKey::kProduce, 0));
  EXPECT_TRUE(IsSupported(ApiKey::kProduce, 7));
  EXPECT_FALSE(IsSupported(ApiKey::kProduce, 8));
  EXPECT_FALSE(IsSupported(ApiKey::kFetch, 3));
  EXPECT_TRUE(IsSupported(ApiKey::kFetch, 4));
  EXPECT_FALSE(IsSupported(ApiKey::kMetadata, 0));
  EXPECT_TRUE(IsSupported(ApiKey::kListOffsets, 2));
  EXPECT_FALSE(IsSupported(ApiKey::kListOffsets, 3));
  EXPECT_TRUE(IsSupported(ApiKey::kJoinGroup, 0));
  EXPECT_FALSE(IsSupported(ApiKey::kJoinGroup, 6));  // flexible
  EXPECT_TRUE(IsSupported(ApiKey::kInitProducerId, 1));
  EXPECT_FALSE(IsSupported(ApiKey::kInitProducerId, 2));  // flexible
  EXPECT_FALSE(IsSupported(ApiKey::kDeleteTopics, 0));
  EXPECT_EQ(ApiKeyName(ApiKey::kListOffsets), "ListOffsets");
  EXPECT_EQ(ApiKeyName(static_cast<ApiKey>(-5)), "Unknown");
}

}  // namespace
}  // namespace higgins::kafka
