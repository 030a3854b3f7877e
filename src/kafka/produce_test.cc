// Produce: golden v3 and v7 requests (records kept as opaque views), a v0 request without a
// transactional id, responses per version, and malformed input.
#include "kafka/produce.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

// transactional_id, acks -1, timeout 30000 ms, topic "test", partition 0 with 5 record bytes.
constexpr std::string_view kTopicsHex =
    "ffff 00007530 | 00000001 0004 74657374 | 00000001 00000000 00000005 0102030405";

TEST(ProduceTest, DecodesV3Request) {
  const std::string body = Hex("ffff |" + std::string(kTopicsHex));
  Reader reader(body);
  auto request = DecodeProduceRequest(reader, 3);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->transactional_id, std::nullopt);
  EXPECT_EQ(request->acks, -1);
  EXPECT_EQ(request->timeout_ms, 30000);
  ASSERT_EQ(request->topics.size(), 1u);
  EXPECT_EQ(request->topics[0].name, "test");
  ASSERT_EQ(request->topics[0].partitions.size(), 1u);
  EXPECT_EQ(request->topics[0].partitions[0].index, 0);
  const auto records = request->topics[0].partitions[0].records;
  ASSERT_TRUE(records.has_value());
  EXPECT_EQ(*records, Hex("0102030405"));
  EXPECT_EQ(records->data(), body.data() + body.size() - 5);  // a view, not a copy
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeProduceRequest(r, 3); });
}

TEST(ProduceTest, DecodesV7TransactionalRequest) {
  const std::string body = Hex("0002 7478 |" + std::string(kTopicsHex));
  Reader reader(body);
  auto request = DecodeProduceRequest(reader, 7);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->transactional_id, std::optional<std::string_view>("tx"));
  EXPECT_EQ(request->topics[0].partitions[0].records,
            std::optional<std::string_view>(std::string_view(body).substr(32)));

  std::string out;
  Writer writer(&out);
  EncodeProduceRequest(*request, 7, writer);
  EXPECT_EQ(out, body);
  testing::ExpectEveryPrefixFails(body, [](Reader& r) { return DecodeProduceRequest(r, 7); });
}

TEST(ProduceTest, V0HasNoTransactionalIdAndAllowsNullRecords) {
  const std::string body =
      Hex("0001 000003e8 | 00000001 0001 74 | 00000002 00000000 ffffffff |"
          "00000001 00000000");
  Reader reader(body);
  auto request = DecodeProduceRequest(reader, 0);
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  EXPECT_EQ(request->acks, 1);
  EXPECT_EQ(request->timeout_ms, 1000);
  ASSERT_EQ(request->topics[0].partitions.size(), 2u);
  EXPECT_EQ(request->topics[0].partitions[0].records, std::nullopt);
  EXPECT_EQ(request->topics[0].partitions[1].index, 1);
  EXPECT_EQ(request->topics[0].partitions[1].records, std::optional<std::string_view>(""));
}

TEST(ProduceTest, RecordsLongerThanTheFrameAreCorruption) {
  const std::string body =
      Hex("ffff ffff 00007530 | 00000001 0004 74657374 | 00000001 00000000 "
          "00100000 0102");
  Reader reader(body);
  EXPECT_EQ(DecodeProduceRequest(reader, 3).status(),
            Status::Corruption(
                "Produce request: BYTES length 1048576 exceeds the 2 bytes left at byte 26"));
}

TEST(ProduceTest, Version8IsNotSupported) {
  const std::string body = Hex("ffff |" + std::string(kTopicsHex));
  Reader reader(body);
  EXPECT_EQ(DecodeProduceRequest(reader, 8).status(),
            Status::NotSupported("Produce v8 is not supported (v0-7)"));
}

ProduceResponse SampleResponse() {
  ProduceResponse response;
  response.topics = {{"test", {{0, ErrorCode::kNone, 42, -1, 0}}}};
  response.throttle_time_ms = 0;
  return response;
}

TEST(ProduceTest, V7ResponseGoldenBytes) {
  std::string out;
  Writer writer(&out);
  EncodeProduceResponse(SampleResponse(), 7, writer);
  // The throttle time comes after the topics; log_append_time -1 means CreateTime.
  EXPECT_EQ(testing::ToHex(out),
            testing::ToHex(Hex("00000001 0004 74657374 | 00000001 | 00000000 0000 "
                               "000000000000002a ffffffffffffffff 0000000000000000 | 00000000")));
}

TEST(ProduceTest, ResponseRoundTripsAtEveryVersion) {
  for (int16_t v = 0; v <= 7; ++v) {
    ProduceResponse response = SampleResponse();
    response.topics[0].partitions[0].error_code = ErrorCode::kNotLeaderOrFollower;
    if (v >= 1) response.throttle_time_ms = 5;
    if (v >= 2) response.topics[0].partitions[0].log_append_time_ms = 1700000000000;
    if (v < 5) response.topics[0].partitions[0].log_start_offset = -1;
    std::string out;
    Writer writer(&out);
    EncodeProduceResponse(response, v, writer);
    Reader reader(out);
    auto back = DecodeProduceResponse(reader, v);
    ASSERT_TRUE(back.ok()) << v << ": " << back.status().ToString();
    EXPECT_EQ(*back, response) << v;
    testing::ExpectEveryPrefixFails(out, [v](Reader& r) { return DecodeProduceResponse(r, v); });
  }
}

}  // namespace
}  // namespace higgins::kafka
