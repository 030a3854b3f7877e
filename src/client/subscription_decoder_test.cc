#include "client/subscription_decoder.h"

#include <gtest/gtest.h>

#include "higgins/arrow/ipc/writer.h"

namespace higgins::client_internal {
namespace {

namespace wire = higgins::wire;

const std::string kIdBytes("\x01\x23\xab\xcd\x45\x67\x89\xef\x0a\x1b\x2c\x3d\x4e\x5f\x60\x71", 16);
constexpr char kIdText[] = "0123abcd-4567-89ef-0a1b-2c3d4e5f6071";

std::string Padded(const std::string& key) {
  return key + std::string(32 - key.size(), '\0');
}

arrow::SchemaPtr ValueSchema() {
  return arrow::MakeSchema({arrow::Field("v", arrow::DataType::Int32(), false)});
}

std::string ValueData(std::initializer_list<int32_t> values) {
  arrow::ArrayBuilder builder(arrow::DataType::Int32());
  for (int32_t v : values) builder.AppendPrimitive<int32_t>(v);
  auto batch = arrow::RecordBatch::Make(ValueSchema(), static_cast<int64_t>(values.size()),
                                        {builder.Finish()});
  EXPECT_TRUE(batch.ok());
  auto ipc = arrow::ipc::WriteStream(ValueSchema(), {*batch});
  EXPECT_TRUE(ipc.ok());
  return std::string(ipc->view());
}

PushedRecord Pushed(std::initializer_list<int32_t> values, bool redelivered) {
  PushedRecord pushed;
  pushed.subscription_id = kIdBytes;
  pushed.record.set_data(ValueData(values));
  pushed.record.set_stream("events");
  pushed.record.set_partition(Padded("k1"));
  pushed.record.set_offset(4);
  pushed.record.set_count(values.size());
  for (size_t i = 0; i < values.size(); ++i) pushed.record.add_timestamps(1000 + i);
  pushed.record.set_redelivered(redelivered);
  return pushed;
}

wire::Message SubscriptionReply() {
  wire::Message m;
  m.set_type(wire::Message::GETSUBSCRIPTIONRESPONSE);
  auto* r = m.mutable_getsubscriptionresponse();
  r->set_stream("events");
  r->set_subscription_id(kIdBytes);
  auto* summary = r->mutable_summary();
  summary->set_subscription_id(kIdBytes);
  summary->set_stream("events");
  summary->set_offset_type(wire::CURRENT);
  summary->set_timeout_ms(30000);
  summary->set_consumers(1);
  summary->set_unacknowledged(2);
  summary->set_pending(5);
  summary->set_durable(true);
  wire::KeyOffset* k1 = r->add_offsets();
  k1->set_key(Padded("k1"));
  k1->set_watermark(3);
  k1->set_count(10);
  k1->set_next_offset(5);
  k1->set_unacknowledged(2);
  k1->set_acknowledged_above(0);
  wire::ClientCount* consumer = r->add_client_counts();
  consumer->set_client_id(9);
  consumer->set_count(98);
  consumer->set_in_flight(2);
  return m;
}

TEST(SubscriptionDecoderTest, PushDecodesLikeAQueryRecord) {
  auto delivery = DecodeDelivery(Pushed({1, 2, 3}, false));
  ASSERT_TRUE(delivery.ok()) << delivery.status().ToString();
  EXPECT_EQ(delivery->subscription_id, kIdText);
  EXPECT_EQ(delivery->records.stream, "events");
  EXPECT_EQ(delivery->records.partition_key, "k1");
  EXPECT_EQ(delivery->records.offset, 4u);
  EXPECT_EQ(delivery->records.num_rows(), 3);
  EXPECT_EQ(delivery->records.timestamps_ms, (std::vector<uint64_t>{1000, 1001, 1002}));
  EXPECT_FALSE(delivery->records.redelivered);
  EXPECT_TRUE(DecodeDelivery(Pushed({1}, true))->records.redelivered);
}

TEST(SubscriptionDecoderTest, PushWithBadIdOrDataIsCorruption) {
  PushedRecord short_id = Pushed({1}, false);
  short_id.subscription_id = "abc";
  EXPECT_EQ(DecodeDelivery(short_id).status().code(), StatusCode::kCorruption);
  PushedRecord damaged = Pushed({1, 2}, false);
  damaged.record.mutable_data()->resize(10);
  auto decoded = DecodeDelivery(damaged);
  EXPECT_EQ(decoded.status().code(), StatusCode::kCorruption);
  EXPECT_TRUE(decoded.status().message().starts_with(std::string("push of subscription ") +
                                                     kIdText + ": record data: "))
      << decoded.status().ToString();
  PushedRecord miscounted = Pushed({1, 2}, false);
  miscounted.record.set_count(3);
  EXPECT_EQ(DecodeDelivery(miscounted).status().code(), StatusCode::kCorruption);
}

TEST(SubscriptionDecoderTest, CreateReplyGivesTheIdAsText) {
  wire::Message m;
  m.set_type(wire::Message::CREATESUBSCRIPTIONRESPONSE);
  m.mutable_createsubscriptionresponse()->set_subscription_id(kIdBytes);
  EXPECT_EQ(*DecodeCreateSubscription(m), kIdText);
  m.mutable_createsubscriptionresponse()->set_subscription_id("short");
  EXPECT_EQ(DecodeCreateSubscription(m).status().code(), StatusCode::kCorruption);
}

TEST(SubscriptionDecoderTest, CreateReplyErrorsKeepTheBrokersCode) {
  wire::Message m;
  m.set_type(wire::Message::CREATESUBSCRIPTIONRESPONSE);
  m.mutable_createsubscriptionresponse()->add_errors("stream 'nope' does not exist");
  m.mutable_createsubscriptionresponse()->set_code(wire::NOT_FOUND);
  EXPECT_EQ(DecodeCreateSubscription(m).status(), Status::NotFound("stream 'nope' does not exist"));
  // An older broker: errors without a code.
  m.mutable_createsubscriptionresponse()->set_code(wire::OK);
  EXPECT_EQ(DecodeCreateSubscription(m).status().code(), StatusCode::kInternal);
}

TEST(SubscriptionDecoderTest, TakeReplyGivesTheDemandOrTheError) {
  wire::Message m;
  m.set_type(wire::Message::TAKERECORDSRESPONSE);
  m.mutable_takerecordsresponse()->set_demand(100);
  EXPECT_EQ(*DecodeTake(m), 100u);
  m.mutable_takerecordsresponse()->add_errors("subscription 0123... does not exist");
  m.mutable_takerecordsresponse()->set_code(wire::NOT_FOUND);
  EXPECT_EQ(DecodeTake(m).status().code(), StatusCode::kNotFound);
  wire::Message unimplemented;
  unimplemented.set_type(wire::Message::ERROR);
  unimplemented.mutable_error()->set_type(wire::Error::UNIMPLEMENTED);
  unimplemented.mutable_error()->set_message("unknown operation");
  EXPECT_EQ(DecodeTake(unimplemented).status(), Status::NotSupported("unknown operation"));
}

TEST(SubscriptionDecoderTest, AcknowledgeFailureKeepsTextAndCode) {
  wire::Message m;
  m.set_type(wire::Message::ACKNOWLEDGERESPONSE);
  EXPECT_TRUE(DecodeAcknowledge(m).ok());
  auto* r = m.mutable_acknowledgeresponse();
  r->set_error("partition 'k1': [5, 9) was never pushed");
  r->set_code(wire::INVALID_ARGUMENT);
  wire::Offset* failed = r->add_failed_offsets();
  failed->set_key(Padded("k1"));
  failed->mutable_range()->set_start(5);
  failed->mutable_range()->set_end(9);
  EXPECT_EQ(DecodeAcknowledge(m),
            Status::InvalidArgument("partition 'k1': [5, 9) was never pushed"));
}

TEST(SubscriptionDecoderTest, AcknowledgeFailedRangesWithoutTextAreListed) {
  wire::Message m;
  m.set_type(wire::Message::ACKNOWLEDGERESPONSE);
  auto* r = m.mutable_acknowledgeresponse();
  r->set_code(wire::INVALID_ARGUMENT);
  wire::Offset* failed = r->add_failed_offsets();
  failed->set_key(Padded("k1"));
  failed->mutable_range()->set_start(5);
  failed->mutable_range()->set_end(9);
  EXPECT_EQ(DecodeAcknowledge(m),
            Status::InvalidArgument("the broker did not acknowledge:\npartition 'k1': [5, 10)"));
  r->set_code(wire::OK);  // failed ranges without a code: still a failure
  EXPECT_EQ(DecodeAcknowledge(m).code(), StatusCode::kInternal);
}

TEST(SubscriptionDecoderTest, SubscriptionHasPartitionsAndConsumers) {
  auto info = DecodeSubscription(SubscriptionReply());
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->id, kIdText);
  EXPECT_EQ(info->stream, "events");
  EXPECT_EQ(info->start, SubscriptionStart::Kind::kCurrent);
  EXPECT_EQ(info->visibility_timeout_ms, 30000u);
  EXPECT_TRUE(info->durable);
  EXPECT_EQ(info->consumers, 1u);
  EXPECT_EQ(info->unacknowledged, 2u);
  EXPECT_EQ(info->pending, 5u);
  ASSERT_EQ(info->partitions.size(), 1u);
  EXPECT_EQ(info->partitions[0].key, "k1");
  EXPECT_EQ(info->partitions[0].watermark, 3u);
  EXPECT_EQ(info->partitions[0].count, 10u);
  EXPECT_EQ(info->partitions[0].next_offset, 5u);
  EXPECT_EQ(info->partitions[0].unacknowledged, 2u);
  ASSERT_EQ(info->consumer_list.size(), 1u);
  EXPECT_EQ(info->consumer_list[0].id, 9u);
  EXPECT_EQ(info->consumer_list[0].demand, 98u);
  EXPECT_EQ(info->consumer_list[0].in_flight, 2u);
}

TEST(SubscriptionDecoderTest, SubscriptionWithBadKeyOrStartIsCorruption) {
  wire::Message bad_key = SubscriptionReply();
  bad_key.mutable_getsubscriptionresponse()->mutable_offsets(0)->set_key(std::string(32, '\0'));
  EXPECT_EQ(DecodeSubscription(bad_key).status().code(), StatusCode::kCorruption);
  wire::Message bad_start = SubscriptionReply();
  bad_start.mutable_getsubscriptionresponse()->mutable_summary()->set_offset_type(
      static_cast<wire::ConsumerOffsetType>(17));
  EXPECT_EQ(DecodeSubscription(bad_start).status(),
            Status::Corruption("unknown subscription start type 17"));
}

TEST(SubscriptionDecoderTest, NotFoundSubscriptionKeepsTheBrokersText) {
  wire::Message m;
  m.set_type(wire::Message::GETSUBSCRIPTIONRESPONSE);
  m.mutable_getsubscriptionresponse()->add_errors("no subscription x");
  m.mutable_getsubscriptionresponse()->set_code(wire::NOT_FOUND);
  EXPECT_EQ(DecodeSubscription(m).status(), Status::NotFound("no subscription x"));
  EXPECT_EQ(DecodeSubscriptionList(m).status(), Status::NotFound("no subscription x"));
}

TEST(SubscriptionDecoderTest, ListingHasSummariesOnly) {
  wire::Message m;
  m.set_type(wire::Message::GETSUBSCRIPTIONRESPONSE);
  auto list = DecodeSubscriptionList(m);
  ASSERT_TRUE(list.ok());
  EXPECT_TRUE(list->empty());
  *m.mutable_getsubscriptionresponse()->add_subscriptions() =
      SubscriptionReply().getsubscriptionresponse().summary();
  m.mutable_getsubscriptionresponse()->mutable_subscriptions(0)->set_offset_type(
      wire::FROM_TIMESTAMP);
  list = DecodeSubscriptionList(m);
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ((*list)[0].id, kIdText);
  EXPECT_EQ((*list)[0].start, SubscriptionStart::Kind::kTimestamp);
  EXPECT_TRUE((*list)[0].partitions.empty());
}

}  // namespace
}  // namespace higgins::client_internal
