// How a delivery round's pushes become push frames: several partitions' records per frame, in
// order, within the frame limit.
#include "server/subscription_requests.h"

#include <gtest/gtest.h>

#include "arrow/json/json_reader.h"
#include "higgins/arrow/ipc/reader.h"
#include "protocol/partition_name.h"

namespace higgins::server {
namespace {

using higgins::wire::Message;

arrow::SchemaPtr AmountSchema() {
  return arrow::MakeSchema({arrow::Field("id", arrow::DataType::Utf8(), false),
                            arrow::Field("data", arrow::DataType::Int32())});
}

/// A push of `rows` records of partition `key` from `offset`, data = offset + i.
subscription::SubscriptionPush Push(std::string key, uint64_t offset, int rows) {
  std::string json = "[";
  for (int i = 0; i < rows; ++i) {
    json += (i == 0 ? "" : ",") + std::string(R"({"id":")") + key + R"(","data":)" +
            std::to_string(offset + static_cast<uint64_t>(i)) + "}";
  }
  auto batch = arrow::json::ReadJson(json + "]", AmountSchema());
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  subscription::SubscriptionPush push;
  push.subscription_id = SubscriptionId(std::string(16, 'x'));
  push.stream = "amount";
  push.key = std::move(key);
  push.records.offset = offset;
  push.records.rows.first_offset = offset;
  push.records.rows.batch = *std::move(batch);
  push.records.rows.timestamps_ms.assign(static_cast<size_t>(rows), 1000);
  return push;
}

/// (partition, offset, data) of every record of `messages`, in order, decoding each Record's
/// Arrow stream.
struct Got {
  std::string key;
  uint64_t offset;
  int32_t data;
  bool operator==(const Got&) const = default;
};
std::vector<Got> Records(const std::vector<Message>& messages) {
  std::vector<Got> out;
  for (const Message& m : messages) {
    EXPECT_EQ(m.type(), Message::TAKERECORDSRESPONSE);
    EXPECT_TRUE(m.takerecordsresponse().push());
    EXPECT_FALSE(m.has_correlationid());
    for (const auto& record : m.takerecordsresponse().records()) {
      auto read = arrow::ipc::ReadStream(
          Buffer::FromVector(std::vector<uint8_t>(record.data().begin(), record.data().end())));
      EXPECT_TRUE(read.ok()) << read.status().ToString();
      if (!read.ok() || read->batches.size() != 1) continue;
      EXPECT_EQ(record.count(), static_cast<uint64_t>(read->batches[0].num_rows()));
      auto key = protocol::DecodePartitionName(record.partition());
      for (int64_t r = 0; r < read->batches[0].num_rows(); ++r) {
        out.push_back({key.ok() ? *key : "?", record.offset() + static_cast<uint64_t>(r),
                       read->batches[0].column(1).Value<int32_t>(r)});
      }
    }
  }
  return out;
}

TEST(PushMessagesTest, PushesOfSeveralPartitionsShareOneFrameInOrder) {
  std::vector<subscription::SubscriptionPush> pushes{Push("a", 0, 1), Push("b", 5, 2),
                                                     Push("c", 9, 1)};
  auto frames = SubscriptionRequests::PushMessages(pushes, 1u << 20);
  EXPECT_TRUE(frames.failed.empty());
  ASSERT_EQ(frames.messages.size(), 1u);
  EXPECT_EQ(frames.messages[0].takerecordsresponse().records_size(), 3);
  EXPECT_EQ(frames.messages[0].takerecordsresponse().subscription_id(), std::string(16, 'x'));
  EXPECT_EQ(Records(frames.messages),
            (std::vector<Got>{{"a", 0, 0}, {"b", 5, 5}, {"b", 6, 6}, {"c", 9, 9}}));
}

TEST(PushMessagesTest, FramesStayWithinTheLimitAndALargePushIsSplitInOrder) {
  std::vector<subscription::SubscriptionPush> pushes;
  for (int k = 0; k < 20; ++k) pushes.push_back(Push("k" + std::to_string(k), 100, 1));
  pushes.push_back(Push("big", 0, 40));
  std::vector<Got> expected;
  for (int k = 0; k < 20; ++k) expected.push_back({"k" + std::to_string(k), 100, 100});
  for (int i = 0; i < 40; ++i) expected.push_back({"big", static_cast<uint64_t>(i), i});
  // About three one-record Records per frame.
  const size_t limit = 3 * (SubscriptionRequests::PushMessages({&pushes[0], 1}, 1u << 20)
                                .messages[0]
                                .ByteSizeLong()) +
                       40;
  auto frames = SubscriptionRequests::PushMessages(pushes, limit);
  EXPECT_TRUE(frames.failed.empty());
  EXPECT_GT(frames.messages.size(), 7u);
  for (const Message& m : frames.messages) EXPECT_LE(m.ByteSizeLong(), limit);
  EXPECT_EQ(Records(frames.messages), expected);
}

TEST(PushMessagesTest, AnEndedPushAndATooLargeRecordAreErrorFramesInTheirPlace) {
  std::vector<subscription::SubscriptionPush> pushes{Push("a", 0, 1), Push("b", 0, 1)};
  pushes[1].key = std::string(5000, 'b');  // its Record alone passes the limit below
  pushes.push_back(Push("c", 3, 1));
  // Room for the Records of a and c in one frame.
  const size_t limit =
      2 * SubscriptionRequests::PushMessages({&pushes[0], 1}, 1u << 20).messages[0].ByteSizeLong() +
      100;
  subscription::SubscriptionPush ended;
  ended.subscription_id = pushes[0].subscription_id;
  ended.ended = Status::NotFound("subscription was deleted");
  pushes.push_back(ended);
  auto frames = SubscriptionRequests::PushMessages(pushes, limit);
  ASSERT_EQ(frames.failed.size(), 1u);
  EXPECT_EQ(frames.failed[0].code(), StatusCode::kResourceExhausted);
  ASSERT_EQ(frames.messages.size(), 4u);
  EXPECT_EQ(Records({frames.messages[0]}), (std::vector<Got>{{"a", 0, 0}}));
  const auto& too_large = frames.messages[1].takerecordsresponse();
  EXPECT_EQ(too_large.records_size(), 0);
  EXPECT_EQ(too_large.code(), higgins::wire::RESOURCE_EXHAUSTED);
  ASSERT_EQ(too_large.errors_size(), 1);
  EXPECT_NE(too_large.errors(0).find("more than the frame limit"), std::string::npos);
  EXPECT_EQ(Records({frames.messages[2]}), (std::vector<Got>{{"c", 3, 3}}));
  const auto& last = frames.messages[3].takerecordsresponse();
  EXPECT_EQ(last.records_size(), 0);
  ASSERT_EQ(last.errors_size(), 1);
  EXPECT_NE(last.errors(0).find("deleted"), std::string::npos);
}

// The push of a record under a 4000-byte key cannot fit 4096 bytes (the key is in the batch and
// in Record.partition); the error push that takes its place quotes 64 bytes of the key, so it
// fits the frame and reaches the consumer.
TEST(PushMessagesTest, ATooLargeRecordUnderALongKeyIsReportedInAPushThatFits) {
  std::vector<subscription::SubscriptionPush> pushes{Push(std::string(4000, 'b'), 0, 1),
                                                     Push("c", 3, 1)};
  auto frames = SubscriptionRequests::PushMessages(pushes, 4096);
  ASSERT_EQ(frames.failed.size(), 1u);
  ASSERT_EQ(frames.messages.size(), 2u);
  const auto& too_large = frames.messages[0].takerecordsresponse();
  EXPECT_TRUE(too_large.push());
  EXPECT_EQ(too_large.code(), higgins::wire::RESOURCE_EXHAUSTED);
  ASSERT_EQ(too_large.errors_size(), 1);
  EXPECT_EQ(too_large.errors(0), "a push of 1 record(s) of partition '" + std::string(64, 'b') +
                                     "'…(4000 bytes) at offset 0 takes 8480 bytes, more than the "
                                     "frame limit of 4096");
  EXPECT_EQ(frames.failed[0].message(), too_large.errors(0));
  EXPECT_LE(frames.messages[0].ByteSizeLong(), 4096u);
  EXPECT_EQ(Records({frames.messages[1]}), (std::vector<Got>{{"c", 3, 3}}));
}

// A frame takes Records up to the limit exactly: the size of the frame holding a, b and c is
// the largest limit at which they share one frame.
TEST(PushMessagesTest, RecordsShareAFrameUpToTheLimitExactly) {
  std::vector<subscription::SubscriptionPush> pushes{Push("a", 0, 1), Push("b", 0, 2),
                                                     Push("c", 3, 1)};
  const size_t together =
      SubscriptionRequests::PushMessages(pushes, 1u << 20).messages[0].ByteSizeLong();
  auto at_limit = SubscriptionRequests::PushMessages(pushes, together);
  ASSERT_EQ(at_limit.messages.size(), 1u);
  EXPECT_EQ(at_limit.messages[0].ByteSizeLong(), together);
  auto below = SubscriptionRequests::PushMessages(pushes, together - 1);
  ASSERT_EQ(below.messages.size(), 2u);
  EXPECT_EQ(below.messages[0].takerecordsresponse().records_size(), 2);
  EXPECT_EQ(below.messages[1].takerecordsresponse().records_size(), 1);
  EXPECT_EQ(Records(below.messages),
            (std::vector<Got>{{"a", 0, 0}, {"b", 0, 0}, {"b", 1, 1}, {"c", 3, 3}}));
}

}  // namespace
}  // namespace higgins::server
