// ApiVersions: golden bytes of v0 and v3 requests and responses, the reply to a version newer
// than ours (v0 body, UNSUPPORTED_VERSION, our ranges), and malformed input.
#include "kafka/api_versions.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/request.h"
#include "kafka/request_header.h"
#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

// The seventeen rows of kSupportedApis (docs/kafka.md, "APIs and versions") as (key, min, max)
// INT16 triples in table order, 6 bytes each.
constexpr std::string_view kRangesHex =
    "0000 0000 0007 | 0001 0004 000b | 0002 0001 0002 | 0003 0001 0008 | 0008 0002 0007 |"
    "0009 0001 0007 | 000a 0000 0002 | 000b 0000 0005 | 000c 0000 0003 | 000d 0000 0003 |"
    "000e 0000 0003 | 000f 0000 0004 | 0010 0000 0002 | 0012 0000 0003 | 0013 0000 0004 |"
    "0016 0000 0001 | 0020 0000 0002";

TEST(ApiVersionsTest, DecodesV0Request) {
  // Header v1 (client id "rdkafka"); the v0 body is empty.
  const std::string frame = Hex("0012 0000 00000001 0007 72646b61666b61");
  Reader reader(frame);
  auto header = DecodeRequestHeader(reader);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->api_key, ApiKey::kApiVersions);
  auto request = DecodeApiVersionsRequest(reader, header->api_version);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(*request, ApiVersionsRequest{});
}

TEST(ApiVersionsTest, DecodesV3Request) {
  // Header v2, then client_software_name "librdkafka", client_software_version "2.0.2",
  // and an empty tagged-field section.
  const std::string frame = Hex(
      "0012 0003 00000002 0007 72646b61666b61 00 | 0b 6c696272646b61666b61 | 06 322e302e32 | 00");
  Reader reader(frame);
  auto header = DecodeRequestHeader(reader);
  ASSERT_TRUE(header.ok());
  auto request = DecodeApiVersionsRequest(reader, 3);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->client_software_name, "librdkafka");
  EXPECT_EQ(request->client_software_version, "2.0.2");

  std::string out;
  Writer writer(&out);
  EncodeRequestHeader(*header, writer);
  EncodeApiVersionsRequest(*request, 3, writer);
  EXPECT_EQ(out, frame);
}

TEST(ApiVersionsTest, V3RequestEveryPrefixFails) {
  const std::string body = Hex("0b 6c696272646b61666b61 | 06 322e302e32 | 00");
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeApiVersionsRequest(r, 3); });
}

TEST(ApiVersionsTest, V3RequestWithNullNameIsCorruption) {
  const std::string body = Hex("00 | 06 322e302e32 | 00");
  Reader reader(body);
  EXPECT_EQ(DecodeApiVersionsRequest(reader, 3).status(),
            Status::Corruption("ApiVersions request: null COMPACT_STRING at byte 0"));
}

TEST(ApiVersionsTest, V0RequestWithTrailingBytesIsCorruption) {
  const std::string body = Hex("00");
  Reader reader(body);
  EXPECT_EQ(DecodeApiVersionsRequest(reader, 0).status().code(), StatusCode::kCorruption);
}

TEST(ApiVersionsTest, EncodesV0Response) {
  std::string out;
  Writer writer(&out);
  EncodeApiVersionsResponse(SupportedApiVersionsResponse(), 0, writer);
  EXPECT_EQ(testing::ToHex(out),
            testing::ToHex(Hex("0000 | 00000011 |" + std::string(kRangesHex))));
}

TEST(ApiVersionsTest, EncodesV3Response) {
  ApiVersionsResponse response = SupportedApiVersionsResponse();
  response.throttle_time_ms = 10;
  std::string out;
  Writer writer(&out);
  EncodeApiVersionsResponse(response, 3, writer);
  // COMPACT_ARRAY of 17 (12), each entry followed by an empty tagged-field section, then
  // throttle_time_ms and the body's tagged fields.
  EXPECT_EQ(testing::ToHex(out),
            testing::ToHex(Hex("0000 | 12 | 0000 0000 0007 00 | 0001 0004 000b 00 |"
                               "0002 0001 0002 00 | 0003 0001 0008 00 | 0008 0002 0007 00 |"
                               "0009 0001 0007 00 | 000a 0000 0002 00 | 000b 0000 0005 00 |"
                               "000c 0000 0003 00 | 000d 0000 0003 00 | 000e 0000 0003 00 |"
                               "000f 0000 0004 00 | 0010 0000 0002 00 | 0012 0000 0003 00 |"
                               " 0013 0000 0004 00 | 0016 0000 0001 00 |"
                               "0020 0000 0002 00 | 0000000a | 00")));
  Reader reader(out);
  auto back = DecodeApiVersionsResponse(reader, 3);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, response);
}

TEST(ApiVersionsTest, ResponseRoundTripsAtEveryVersion) {
  ApiVersionsResponse response = SupportedApiVersionsResponse();
  for (int16_t v = 0; v <= 3; ++v) {
    response.throttle_time_ms = v >= 1 ? 250 : 0;
    std::string out;
    Writer writer(&out);
    EncodeApiVersionsResponse(response, v, writer);
    Reader reader(out);
    auto back = DecodeApiVersionsResponse(reader, v);
    ASSERT_TRUE(back.ok()) << v << ": " << back.status().ToString();
    EXPECT_EQ(*back, response) << v;
    testing::ExpectEveryPrefixFails(out,
                                    [v](Reader& r) { return DecodeApiVersionsResponse(r, v); });
  }
}

TEST(ApiVersionsTest, NewerVersionIsAnsweredWithV0AndUnsupportedVersion) {
  // A client at ApiVersions v4 (header v2, flexible body we do not parse).
  const std::string frame = Hex(
      "0012 0004 00000009 0007 72646b61666b61 00 | 0b 6c696272646b61666b61 | 06 322e302e32 | 00");
  Reader reader(frame);
  auto header = DecodeRequestHeader(reader);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->correlation_id, 9);
  auto decoded = DecodeRequest(*header, reader);
  EXPECT_EQ(decoded.status(), Status::NotSupported("ApiVersions v4 is not supported (v0-3)"));

  // What the server writes: a size-prefixed frame, response header v0, body v0.
  const int16_t version = ApiVersionsResponseVersion(header->api_version);
  EXPECT_EQ(version, 0);
  std::string out;
  Writer writer(&out);
  const size_t size = writer.ReserveInt32();
  EncodeResponseHeader(header->api_key, header->api_version, header->correlation_id, writer);
  EncodeApiVersionsResponse(UnsupportedApiVersionsResponse(), version, writer);
  writer.FillSizeSince(size);
  EXPECT_EQ(testing::ToHex(out), testing::ToHex(Hex("00000070 | 00000009 | 0023 | 00000011 |" +
                                                    std::string(kRangesHex))));
}

TEST(ApiVersionsTest, SupportedVersionsAnswerInKind) {
  EXPECT_EQ(ApiVersionsResponseVersion(0), 0);
  EXPECT_EQ(ApiVersionsResponseVersion(3), 3);
  EXPECT_EQ(ApiVersionsResponseVersion(4), 0);
  EXPECT_EQ(ApiVersionsResponseVersion(-1), 0);
}

TEST(ApiVersionsTest, ResponseWithOversizedArrayIsCorruption) {
  const std::string body = Hex("0000 | 00001000 | 0000 0000 0007");
  Reader reader(body);
  EXPECT_EQ(DecodeApiVersionsResponse(reader, 0).status(),
            Status::Corruption(
                "ApiVersions response: ARRAY of 4096 elements exceeds the 6 bytes left at byte 2"));
}

}  // namespace
}  // namespace higgins::kafka
