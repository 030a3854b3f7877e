#include "protocol/reply_size.h"

#include <gtest/gtest.h>

#include <string>

#include "higgins.pb.h"

namespace higgins::protocol {
namespace {

using higgins::wire::Message;

TEST(ReplySizeTest, VarintBytesAtEachBoundary) {
  EXPECT_EQ(VarintBytes(0), 1u);
  EXPECT_EQ(VarintBytes(127), 1u);
  EXPECT_EQ(VarintBytes(128), 2u);
  EXPECT_EQ(VarintBytes(16383), 2u);
  EXPECT_EQ(VarintBytes(16384), 3u);
  EXPECT_EQ(VarintBytes(UINT64_MAX), 10u);
}

TEST(ReplySizeTest, FieldBytesCountTagLengthAndContent) {
  EXPECT_EQ(FieldBytes(1, 0), 2u);
  EXPECT_EQ(FieldBytes(1, 127), 129u);
  EXPECT_EQ(FieldBytes(1, 128), 131u);
  EXPECT_EQ(FieldBytes(18, 5), 8u);  // field 18: a 2-byte tag
  higgins::wire::Record record;
  record.set_data(std::string(300, 'd'));
  higgins::wire::GetIndexResponse response;
  *response.add_records() = record;
  EXPECT_EQ(FieldBytes(higgins::wire::GetIndexResponse::kRecordsFieldNumber, record.ByteSizeLong()),
            response.ByteSizeLong());
}

// A GetIndexResponse with a correlation id, grown one Record at a time: the prediction made
// before each Record is added is the size protobuf gives after, across the body length's
// varint boundaries (127/128 and 16383/16384 bytes).
TEST(ReplySizeTest, PredictsTheSerializedSizeAsTheBodyGrows) {
  Message message;
  message.set_type(Message::GETINDEXRESPONSE);
  message.set_correlationid(123456789);
  auto* body = message.mutable_getindexresponse();
  ReplySize size(message, *body, 1u << 20);
  EXPECT_EQ(size.total(), message.ByteSizeLong());
  for (size_t data : {10u, 80u, 30u, 16000u, 200u, 5u}) {
    higgins::wire::Record record;
    record.set_data(std::string(data, 'x'));
    record.set_partition(std::string(32, 'k'));
    const size_t bytes =
        FieldBytes(higgins::wire::GetIndexResponse::kRecordsFieldNumber, record.ByteSizeLong());
    const size_t predicted = size.TotalWith(bytes);
    *body->add_records() = std::move(record);
    size.Add(bytes);
    EXPECT_EQ(predicted, message.ByteSizeLong());
    EXPECT_EQ(size.total(), message.ByteSizeLong());
  }
}

TEST(ReplySizeTest, StartsFromABodyThatIsNotEmpty) {
  Message message;
  message.set_type(Message::TAKERECORDSRESPONSE);
  auto* body = message.mutable_takerecordsresponse();
  body->set_push(true);
  body->set_subscription_id(std::string(16, 's'));
  ReplySize size(message, *body, 4096);
  EXPECT_EQ(size.total(), message.ByteSizeLong());
  body->add_errors(std::string(200, 'e'));
  EXPECT_EQ(size.TotalWith(FieldBytes(higgins::wire::TakeRecordsResponse::kErrorsFieldNumber, 200)),
            message.ByteSizeLong());
}

TEST(ReplySizeTest, FitsUpToTheLimitExactly) {
  Message message;
  message.set_type(Message::GETINDEXRESPONSE);
  auto* body = message.mutable_getindexresponse();
  // Envelope: type (2 bytes) and the body's tag (2 bytes); an empty body's length (1 byte).
  ReplySize size(message, *body, 100);
  EXPECT_EQ(size.total(), 5u);
  EXPECT_TRUE(size.Fits(95));
  EXPECT_FALSE(size.Fits(96));
  EXPECT_EQ(size.Room(), 95u);  // the length of a body of at most 100 bytes is 1 byte
  size.Add(95);
  EXPECT_EQ(size.total(), 100u);
  EXPECT_EQ(size.Room(), 0u);
  EXPECT_FALSE(size.Fits(1));
}

TEST(ReplySizeTest, RoomLeavesSpaceForALongerBodyLength) {
  Message message;
  message.set_type(Message::GETINDEXRESPONSE);
  auto* body = message.mutable_getindexresponse();
  ReplySize size(message, *body, 1000);
  // 5 bytes now; a body of up to 1000 bytes needs a 2-byte length: 994 more at most.
  EXPECT_EQ(size.Room(), 994u);
  EXPECT_TRUE(size.Fits(size.Room()));
  EXPECT_EQ(size.TotalWith(size.Room()), 1000u);
}

}  // namespace
}  // namespace higgins::protocol
