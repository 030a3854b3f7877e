// DecodeRequest: dispatch by API key and version over whole frame bodies (header + body),
// refusal of unknown keys and versions, and every truncation of every golden frame refused.
#include "kafka/request.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

Result<Request> DecodeFrame(Reader& reader) {
  HIGGINS_ASSIGN_OR_RETURN(const RequestHeader header, DecodeRequestHeader(reader));
  return DecodeRequest(header, reader);
}

// Frame bodies (header v1 with client id "c", or v2 for ApiVersions v3) of each API.
std::vector<std::string> GoldenFrames() {
  return {
      Hex("0012 0000 00000001 0001 63"),
      Hex("0012 0003 00000001 0001 63 00 | 02 61 02 62 00"),
      Hex("0003 0001 00000002 0001 63 | ffffffff"),
      Hex("0003 0004 00000002 0001 63 | 00000001 0001 74 01"),
      Hex("0000 0003 00000003 0001 63 | ffff ffff 00007530 00000001 0001 74 00000001 00000000 "
          "00000002 abcd"),
      Hex("0001 0004 00000004 0001 63 | ffffffff 00000064 00000001 00010000 00 "
          "00000001 0001 74 00000001 00000000 0000000000000000 00010000"),
      Hex("0002 0001 00000005 0001 63 | ffffffff 00000001 0001 74 00000001 00000000 "
          "ffffffffffffffff"),
  };
}

TEST(RequestTest, DispatchesByApiKey) {
  const std::vector<ApiKey> keys = {ApiKey::kApiVersions, ApiKey::kApiVersions, ApiKey::kMetadata,
                                    ApiKey::kMetadata,    ApiKey::kProduce,     ApiKey::kFetch,
                                    ApiKey::kListOffsets};
  const std::vector<std::string> frames = GoldenFrames();
  ASSERT_EQ(frames.size(), keys.size());
  for (size_t i = 0; i < frames.size(); ++i) {
    Reader reader(frames[i]);
    auto request = DecodeFrame(reader);
    ASSERT_TRUE(request.ok()) << i << ": " << request.status().ToString();
    EXPECT_EQ(ApiKeyOf(*request), keys[i]) << i;
  }
  Reader reader(frames[4]);
  auto produce = DecodeFrame(reader);
  ASSERT_TRUE(produce.ok());
  EXPECT_EQ(std::get<ProduceRequest>(*produce).topics[0].partitions[0].records,
            std::optional<std::string_view>(Hex("abcd")));
}

TEST(RequestTest, EveryTruncatedFrameFails) {
  for (const std::string& frame : GoldenFrames()) {
    testing::ExpectEveryPrefixFails(frame, DecodeFrame);
  }
}

TEST(RequestTest, EveryTruncatedFrameReportsItsByte) {
  const std::string frame = GoldenFrames()[5];  // Fetch v4
  // Header of 11 bytes, replica_id and max_wait_ms; min_bytes starts at byte 19 (frame-relative).
  Reader reader(std::string_view(frame).substr(0, 20));
  EXPECT_EQ(DecodeFrame(reader).status().ToString(),
            "Corruption: Fetch request: truncated INT32 at byte 19");
}

TEST(RequestTest, UnknownApiKeyIsNotSupported) {
  const std::string frame = Hex("0020 0000 00000001 ffff");  // DescribeConfigs: not in the table
  Reader reader(frame);
  EXPECT_EQ(DecodeFrame(reader).status(),
            Status::NotSupported("API key 32 (DescribeConfigs) is not supported"));
}

TEST(RequestTest, UnknownVersionIsNotSupported) {
  const std::string frame = Hex("0003 0000 00000001 ffff | 00000000");  // Metadata v0
  Reader reader(frame);
  EXPECT_EQ(DecodeFrame(reader).status(),
            Status::NotSupported("Metadata v0 is not supported (v1-8)"));
}

TEST(RequestTest, DefaultRequestsRoundTripAtEverySupportedVersion) {
  for (const ApiVersionRange& range : kSupportedApis) {
    for (int16_t v = range.min_version; v <= range.max_version; ++v) {
      Request request;
      switch (range.api_key) {
        case ApiKey::kApiVersions: request = ApiVersionsRequest{}; break;
        case ApiKey::kMetadata: request = MetadataRequest{}; break;
        case ApiKey::kProduce: request = ProduceRequest{}; break;
        case ApiKey::kFetch: request = FetchRequest{}; break;
        case ApiKey::kListOffsets: request = ListOffsetsRequest{}; break;
        default: FAIL() << ApiKeyName(range.api_key);
      }
      std::string out;
      Writer writer(&out);
      const RequestHeader header{range.api_key, v, 1, std::nullopt};
      EncodeRequestHeader(header, writer);
      EncodeRequest(request, v, writer);
      Reader reader(out);
      auto back = DecodeFrame(reader);
      ASSERT_TRUE(back.ok()) << ApiKeyName(range.api_key) << " v" << v << ": "
                             << back.status().ToString();
      EXPECT_EQ(*back, request) << ApiKeyName(range.api_key) << " v" << v;
    }
  }
}

}  // namespace
}  // namespace higgins::kafka
