// DecodeRequest: dispatch by API key and version over whole frame bodies (header + body),
// refusal of unknown keys and versions, every truncation of every golden frame refused, and
// the codec's table (kCodecVersions) against the broker's (kSupportedApis).
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
  const std::string frame = Hex("0014 0000 00000001 ffff");  // DeleteTopics: no codec
  Reader reader(frame);
  EXPECT_EQ(DecodeFrame(reader).status(),
            Status::NotSupported("API key 20 (DeleteTopics) is not supported"));
}

// DecodeRequest decodes what the codec knows, served or not (the server refuses what
// kSupportedApis lacks before decoding).
TEST(RequestTest, DecodesGroupRequestsByTheirFrames) {
  const std::string join =
      Hex("000b 0005 00000007 0001 63 | 0001 67 00002710 0000ea60 0000 ffff 0008 636f6e73756d6572 "
          "00000001 0005 72616e6765 00000000");
  Reader join_reader(join);
  auto request = DecodeFrame(join_reader);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  ASSERT_EQ(ApiKeyOf(*request), ApiKey::kJoinGroup);
  EXPECT_EQ(std::get<JoinGroupRequest>(*request).rebalance_timeout_ms, 60000);
  EXPECT_TRUE(IsSupported(ApiKey::kJoinGroup, 5));
  EXPECT_TRUE(CodecKnows(ApiKey::kJoinGroup, 5));

  const std::string fetch_all = Hex("0009 0005 00000008 0001 63 | 0001 67 ffffffff");
  Reader fetch_reader(fetch_all);
  request = DecodeFrame(fetch_reader);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  ASSERT_EQ(ApiKeyOf(*request), ApiKey::kOffsetFetch);
  EXPECT_EQ(std::get<OffsetFetchRequest>(*request).topics, std::nullopt);
}

TEST(RequestTest, ServedApisAreTheDocumentedOnes) {
  // docs/kafka.md, "APIs and versions": the broker serves every version the codec knows.
  EXPECT_EQ(std::size(kSupportedApis), 17u);
  ASSERT_EQ(std::size(kSupportedApis), std::size(kCodecVersions));
  for (const ApiVersionRange& range : kCodecVersions) {
    EXPECT_EQ(SupportedVersions(range.api_key), range) << ApiKeyName(range.api_key);
  }
}

// The codecs that speak the compact encoding are those of ApiVersions (v3) and OffsetFetch
// (v6-7); the others stop below their first flexible version.
TEST(RequestTest, CodecVersionsStayBelowFlexible) {
  for (const ApiVersionRange& range : kCodecVersions) {
    if (range.api_key == ApiKey::kApiVersions || range.api_key == ApiKey::kOffsetFetch) continue;
    EXPECT_FALSE(IsFlexible(range.api_key, range.max_version)) << ApiKeyName(range.api_key);
  }
}

TEST(RequestTest, UnknownVersionIsNotSupported) {
  const std::string frame = Hex("0003 0000 00000001 ffff | 00000000");  // Metadata v0
  Reader reader(frame);
  EXPECT_EQ(DecodeFrame(reader).status(),
            Status::NotSupported("Metadata v0 is not supported (v1-8)"));
}

TEST(RequestTest, DefaultRequestsRoundTripAtEveryCodecVersion) {
  for (const ApiVersionRange& range : kCodecVersions) {
    for (int16_t v = range.min_version; v <= range.max_version; ++v) {
      Request request;
      switch (range.api_key) {
        case ApiKey::kApiVersions: request = ApiVersionsRequest{}; break;
        case ApiKey::kMetadata: request = MetadataRequest{}; break;
        case ApiKey::kProduce: request = ProduceRequest{}; break;
        case ApiKey::kFetch: request = FetchRequest{}; break;
        case ApiKey::kListOffsets: request = ListOffsetsRequest{}; break;
        case ApiKey::kFindCoordinator: request = FindCoordinatorRequest{}; break;
        case ApiKey::kJoinGroup: request = JoinGroupRequest{}; break;
        case ApiKey::kSyncGroup: request = SyncGroupRequest{}; break;
        case ApiKey::kHeartbeat: request = HeartbeatRequest{}; break;
        case ApiKey::kDescribeGroups: request = DescribeGroupsRequest{}; break;
        case ApiKey::kListGroups: request = ListGroupsRequest{}; break;
        case ApiKey::kLeaveGroup: request = LeaveGroupRequest{}; break;
        case ApiKey::kOffsetCommit: request = OffsetCommitRequest{}; break;
        case ApiKey::kOffsetFetch: request = OffsetFetchRequest{}; break;
        case ApiKey::kInitProducerId: request = InitProducerIdRequest{}; break;
        case ApiKey::kDescribeConfigs: request = DescribeConfigsRequest{}; break;
        case ApiKey::kCreateTopics: request = CreateTopicsRequest{}; break;
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
