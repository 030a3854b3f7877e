// Fetch: golden v4 and v11 requests (sessions, leader epochs, forgotten topics, rack id), the
// response defaults clients rely on (empty records are zero-length, preferred replica -1), and
// malformed input.
#include "kafka/fetch.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

TEST(FetchTest, DecodesV4Request) {
  const std::string body =
      Hex("ffffffff 000001f4 00000001 03200000 | 01 |"  // replica, wait 500, min 1, max 50 MiB, RC
          "00000001 0004 74657374 | 00000001 |"         // topic "test", one partition
          "00000000 000000000000002a 00100000");        // partition 0 at offset 42, 1 MiB
  Reader reader(body);
  auto request = DecodeFetchRequest(reader, 4);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->replica_id, -1);
  EXPECT_EQ(request->max_wait_ms, 500);
  EXPECT_EQ(request->min_bytes, 1);
  EXPECT_EQ(request->max_bytes, 52428800);
  EXPECT_EQ(request->isolation_level, 1);
  EXPECT_EQ(request->session_id, 0);
  EXPECT_EQ(request->session_epoch, -1);
  ASSERT_EQ(request->topics.size(), 1u);
  EXPECT_EQ(request->topics[0].topic, "test");
  ASSERT_EQ(request->topics[0].partitions.size(), 1u);
  const FetchPartition& p = request->topics[0].partitions[0];
  EXPECT_EQ(p.partition, 0);
  EXPECT_EQ(p.current_leader_epoch, -1);
  EXPECT_EQ(p.fetch_offset, 42);
  EXPECT_EQ(p.log_start_offset, -1);
  EXPECT_EQ(p.partition_max_bytes, 1048576);
  EXPECT_TRUE(request->forgotten_topics_data.empty());
  EXPECT_EQ(request->rack_id, "");
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeFetchRequest(r, 4); });
}

TEST(FetchTest, DecodesV11Request) {
  const std::string body =
      Hex("ffffffff 000001f4 00000001 03200000 | 00 |"
          "00000007 00000002 |"  // session 7, epoch 2
          "00000001 0004 74657374 | 00000001 |"
          "00000003 00000005 000000000000002a ffffffffffffffff 00100000 |"  // p3, epoch 5
          "00000001 0003 6f6c64 00000002 00000001 00000002 |"               // forget old[1, 2]
          "0003 617a31");                                                   // rack "az1"
  Reader reader(body);
  auto request = DecodeFetchRequest(reader, 11);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->isolation_level, 0);
  EXPECT_EQ(request->session_id, 7);
  EXPECT_EQ(request->session_epoch, 2);
  const FetchPartition& p = request->topics[0].partitions[0];
  EXPECT_EQ(p.partition, 3);
  EXPECT_EQ(p.current_leader_epoch, 5);
  EXPECT_EQ(p.fetch_offset, 42);
  EXPECT_EQ(p.log_start_offset, -1);
  EXPECT_EQ(p.partition_max_bytes, 1048576);
  ASSERT_EQ(request->forgotten_topics_data.size(), 1u);
  EXPECT_EQ(request->forgotten_topics_data[0].topic, "old");
  EXPECT_EQ(request->forgotten_topics_data[0].partitions, (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(request->rack_id, "az1");

  std::string out;
  Writer writer(&out);
  EncodeFetchRequest(*request, 11, writer);
  EXPECT_EQ(out, body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeFetchRequest(r, 11); });
}

TEST(FetchTest, RequestRoundTripsAtEveryVersion) {
  FetchRequest request;
  request.max_wait_ms = 100;
  request.min_bytes = 1;
  request.topics = {{"a", {{0, -1, 10, -1, 4096}, {1, -1, 0, -1, 4096}}}};
  for (int16_t v = 4; v <= 11; ++v) {
    FetchRequest expected = request;
    if (v >= 5) expected.topics[0].partitions[0].log_start_offset = 3;
    if (v >= 7) {
      expected.session_id = 1;
      expected.session_epoch = 0;
      expected.forgotten_topics_data = {{"b", {4}}};
    }
    if (v >= 9) expected.topics[0].partitions[1].current_leader_epoch = 2;
    if (v >= 11) expected.rack_id = "r";
    std::string out;
    Writer writer(&out);
    EncodeFetchRequest(expected, v, writer);
    Reader reader(out);
    auto back = DecodeFetchRequest(reader, v);
    ASSERT_TRUE(back.ok()) << v << ": " << back.status().ToString();
    EXPECT_EQ(*back, expected) << v;
  }
}

TEST(FetchTest, UnsupportedVersions) {
  const std::string body = Hex("00");
  for (int16_t v : {int16_t{3}, int16_t{12}}) {
    Reader reader(body);
    EXPECT_EQ(DecodeFetchRequest(reader, v).status().code(), StatusCode::kNotSupported) << v;
  }
}

TEST(FetchTest, OversizedPartitionCountIsCorruption) {
  const std::string body =
      Hex("ffffffff 000001f4 00000001 03200000 00 | 00000001 0001 74 | 0fffffff 00000000");
  Reader reader(body);
  EXPECT_EQ(DecodeFetchRequest(reader, 4).status(),
            Status::Corruption(
                "Fetch request: ARRAY of 268435455 elements exceeds the 4 bytes left at byte 24"));
}

TEST(FetchTest, V4ResponseWritesEmptyRecordsAsZeroLength) {
  FetchResponse response;
  FetchPartitionResponse partition;
  partition.high_watermark = 0;
  partition.last_stable_offset = 0;
  partition.log_start_offset = 0;
  response.responses = {{"test", {partition}}};
  std::string out;
  Writer writer(&out);
  EncodeFetchResponse(response, 4, writer);
  EXPECT_EQ(testing::ToHex(out),
            testing::ToHex(Hex("00000000 | 00000001 0004 74657374 | 00000001 |"
                               "00000000 0000 0000000000000000 0000000000000000 |"
                               "ffffffff | 00000000")));  // null aborted list, zero-length records
}

TEST(FetchTest, V11ResponseGoldenBytes) {
  FetchResponse response;
  response.session_id = 7;
  FetchPartitionResponse partition;
  partition.partition_index = 2;
  partition.high_watermark = 10;
  partition.last_stable_offset = 10;
  partition.log_start_offset = 0;
  partition.aborted_transactions = std::vector<AbortedTransaction>{{5, 3}};
  const std::string batches = Hex("aabbcc");
  partition.records = batches;
  response.responses = {{"t", {partition}}};
  std::string out;
  Writer writer(&out);
  EncodeFetchResponse(response, 11, writer);
  EXPECT_EQ(testing::ToHex(out),
            testing::ToHex(Hex("00000000 0000 00000007 | 00000001 0001 74 | 00000001 |"
                               "00000002 0000 000000000000000a 000000000000000a 0000000000000000 |"
                               "00000001 0000000000000005 0000000000000003 |"
                               "ffffffff | 00000003 aabbcc")));
  Reader reader(out);
  auto back = DecodeFetchResponse(reader, 11);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, response);
  testing::ExpectEveryPrefixFails(out, [](Reader& r) { return DecodeFetchResponse(r, 11); });
}

TEST(FetchTest, ResponseRoundTripsAtEveryVersion) {
  for (int16_t v = 4; v <= 11; ++v) {
    FetchResponse response;
    response.throttle_time_ms = 1;
    if (v >= 7) response.session_id = 9;
    FetchPartitionResponse p;
    p.high_watermark = 100;
    p.last_stable_offset = 90;
    if (v >= 5) p.log_start_offset = 4;
    p.aborted_transactions.emplace();
    p.records = "xyz";
    response.responses = {{"topic", {p, p}}};
    std::string out;
    Writer writer(&out);
    EncodeFetchResponse(response, v, writer);
    Reader reader(out);
    auto back = DecodeFetchResponse(reader, v);
    ASSERT_TRUE(back.ok()) << v << ": " << back.status().ToString();
    EXPECT_EQ(*back, response) << v;
  }
}

}  // namespace
}  // namespace higgins::kafka
