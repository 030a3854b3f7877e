// Metadata: a null topic array (all topics) against an empty one (none), the fields each
// version adds, and round trips of responses at every supported version.
#include "kafka/metadata.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

TEST(MetadataTest, V1NullTopicsMeansAllTopics) {
  const std::string body = Hex("ffffffff");
  Reader reader(body);
  auto request = DecodeMetadataRequest(reader, 1);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->topics, std::nullopt);
  EXPECT_TRUE(request->allow_auto_topic_creation);
}

TEST(MetadataTest, V1EmptyTopicsMeansNoTopics) {
  const std::string body = Hex("00000000");
  Reader reader(body);
  auto request = DecodeMetadataRequest(reader, 1);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  ASSERT_TRUE(request->topics.has_value());
  EXPECT_TRUE(request->topics->empty());
}

TEST(MetadataTest, V1NamedTopics) {
  const std::string body = Hex("00000002 | 0001 61 | 0002 6263");
  Reader reader(body);
  auto request = DecodeMetadataRequest(reader, 1);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  ASSERT_TRUE(request->topics.has_value());
  EXPECT_EQ(*request->topics, (std::vector<std::string_view>{"a", "bc"}));
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeMetadataRequest(r, 1); });
}

TEST(MetadataTest, V8RequestFlags) {
  // One topic "t", allow_auto_topic_creation false, cluster ops true, topic ops true.
  const std::string body = Hex("00000001 0001 74 | 00 | 01 | 01");
  Reader reader(body);
  auto request = DecodeMetadataRequest(reader, 8);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_FALSE(request->allow_auto_topic_creation);
  EXPECT_TRUE(request->include_cluster_authorized_operations);
  EXPECT_TRUE(request->include_topic_authorized_operations);

  std::string out;
  Writer writer(&out);
  EncodeMetadataRequest(*request, 8, writer);
  EXPECT_EQ(out, body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeMetadataRequest(r, 8); });
}

TEST(MetadataTest, V4BodyReadAsV1HasTrailingBytes) {
  const std::string body = Hex("ffffffff 01");
  Reader reader(body);
  EXPECT_EQ(DecodeMetadataRequest(reader, 1).status(),
            Status::Corruption("Metadata request: 1 unread bytes at byte 4"));
}

TEST(MetadataTest, UnsupportedVersions) {
  const std::string body = Hex("ffffffff");
  for (int16_t v : {int16_t{0}, int16_t{9}, int16_t{-1}}) {
    Reader reader(body);
    EXPECT_EQ(DecodeMetadataRequest(reader, v).status().code(), StatusCode::kNotSupported) << v;
  }
  Reader reader(body);
  EXPECT_EQ(DecodeMetadataRequest(reader, 9).status(),
            Status::NotSupported("Metadata v9 is not supported (v1-8)"));
}

MetadataResponse SampleResponse() {
  MetadataResponse response;
  response.throttle_time_ms = 3;
  response.brokers = {{1, "localhost", 9092, std::nullopt}, {2, "b2", 9093, "rack-a"}};
  response.cluster_id = "higgins";
  response.controller_id = 1;
  MetadataTopic topic;
  topic.name = "events";
  MetadataPartition partition;
  partition.partition_index = 0;
  partition.leader_id = 1;
  partition.leader_epoch = 0;
  partition.replica_nodes = {1};
  partition.isr_nodes = {1};
  topic.partitions = {partition};
  topic.topic_authorized_operations = 0x0f;
  MetadataTopic missing;
  missing.error_code = ErrorCode::kUnknownTopicOrPartition;
  missing.name = "nope";
  response.topics = {topic, missing};
  response.cluster_authorized_operations = 0;
  return response;
}

// Fields a version lacks come back at their defaults.
MetadataResponse AsSeenAt(MetadataResponse r, int16_t version) {
  if (version < 3) r.throttle_time_ms = 0;
  if (version < 2) r.cluster_id.reset();
  for (MetadataTopic& t : r.topics) {
    if (version < 8) t.topic_authorized_operations = kAuthorizedOperationsOmitted;
    for (MetadataPartition& p : t.partitions) {
      if (version < 7) p.leader_epoch = -1;
      if (version < 5) p.offline_replicas.clear();
    }
  }
  if (version < 8) r.cluster_authorized_operations = kAuthorizedOperationsOmitted;
  return r;
}

TEST(MetadataTest, V1ResponseGoldenBytes) {
  std::string out;
  Writer writer(&out);
  EncodeMetadataResponse(SampleResponse(), 1, writer);
  const std::string expected =
      Hex("00000002 | 00000001 0009 6c6f63616c686f7374 00002384 ffff |"  // broker 1, null rack
          "00000002 0002 6232 00002385 0006 7261636b2d61 |"              // broker 2, rack-a
          "00000001 |"                              // controller (no cluster id)
          "00000002 | 0000 0006 6576656e7473 00 |"  // topic events
          "00000001 0000 00000000 00000001 00000001 00000001 00000001 00000001 |"
          "0003 0004 6e6f7065 00 00000000");  // topic nope, error 3
  EXPECT_EQ(testing::ToHex(out), testing::ToHex(expected));
}

TEST(MetadataTest, ResponseRoundTripsAtEveryVersion) {
  for (int16_t v = 1; v <= 8; ++v) {
    const MetadataResponse expected = AsSeenAt(SampleResponse(), v);
    std::string out;
    Writer writer(&out);
    EncodeMetadataResponse(SampleResponse(), v, writer);
    Reader reader(out);
    auto back = DecodeMetadataResponse(reader, v);
    ASSERT_TRUE(back.ok()) << v << ": " << back.status().ToString();
    EXPECT_EQ(*back, expected) << v;
    testing::ExpectEveryPrefixFails(out, [v](Reader& r) { return DecodeMetadataResponse(r, v); });
  }
}

TEST(MetadataTest, NegativeTopicNameLengthIsCorruption) {
  const std::string body = Hex("00000001 fff0");
  Reader reader(body);
  EXPECT_EQ(DecodeMetadataRequest(reader, 1).status(),
            Status::Corruption("Metadata request: negative STRING length -16 at byte 4"));
}

}  // namespace
}  // namespace higgins::kafka
