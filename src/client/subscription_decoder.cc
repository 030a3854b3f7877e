#include "client/subscription_decoder.h"

#include <utility>

#include "client/reply_decoder.h"
#include "client/subscription_id.h"
#include "common/quote.h"
#include "protocol/partition_name.h"

namespace higgins::client_internal {

namespace wire = higgins::wire;

namespace {

Result<std::string> IdText(const std::string& bytes) {
  HIGGINS_ASSIGN_OR_RETURN(SubscriptionId id, SubscriptionId::FromWire(bytes));
  return id.ToString();
}

Result<SubscriptionStart::Kind> StartKind(wire::ConsumerOffsetType type) {
  switch (type) {
    case wire::FROM_BEGINNING: return SubscriptionStart::Kind::kBeginning;
    case wire::CURRENT: return SubscriptionStart::Kind::kCurrent;
    case wire::FROM_OFFSET: return SubscriptionStart::Kind::kOffset;
    case wire::FROM_TIMESTAMP: return SubscriptionStart::Kind::kTimestamp;
    default:
      return Status::Corruption("unknown subscription start type " +
                                std::to_string(static_cast<int>(type)));
  }
}

// A summary's fields; `partitions` and `consumer_list` stay empty.
Result<SubscriptionInfo> DecodeSummary(const wire::SubscriptionSummary& summary) {
  SubscriptionInfo info;
  HIGGINS_ASSIGN_OR_RETURN(info.id, IdText(summary.subscription_id()));
  info.stream = summary.stream();
  HIGGINS_ASSIGN_OR_RETURN(info.start, StartKind(summary.offset_type()));
  info.visibility_timeout_ms = summary.timeout_ms();
  info.durable = summary.durable();
  info.consumers = summary.consumers();
  info.unacknowledged = summary.unacknowledged();
  info.pending = summary.pending();
  return info;
}

Result<SubscriptionPartition> DecodePartition(const wire::KeyOffset& offset) {
  auto key = protocol::DecodePartitionName(offset.key());
  if (!key.ok()) return Status::Corruption("subscription partition: " + key.status().message());
  SubscriptionPartition p;
  p.key = *std::move(key);
  p.watermark = offset.watermark();
  p.count = offset.count();
  p.next_offset = offset.next_offset();
  p.unacknowledged = offset.unacknowledged();
  p.acknowledged_above = offset.acknowledged_above();
  return p;
}

// "partition 'k': [3, 5)" (the wire's range includes its end: {3, 4}), or the raw key's length
// when it does not decode.
std::string RangeText(const wire::Offset& offset) {
  auto key = protocol::DecodePartitionName(offset.key());
  const std::string name =
      key.ok() ? "partition " + Quote(*key)
               : "a partition key of " + std::to_string(offset.key().size()) + " bytes";
  return name + ": [" + std::to_string(offset.range().start()) + ", " +
         std::to_string(offset.range().end() + 1) + ")";
}

}  // namespace

Result<std::string> DecodeCreateSubscription(const wire::Message& reply) {
  HIGGINS_RETURN_IF_ERROR(CheckReplyType(reply, wire::Message::CREATESUBSCRIPTIONRESPONSE));
  const auto& r = reply.createsubscriptionresponse();
  HIGGINS_RETURN_IF_ERROR(OperationStatus(r.code(), r.errors()));
  return IdText(r.subscription_id());
}

Result<uint64_t> DecodeTake(const wire::Message& reply) {
  HIGGINS_RETURN_IF_ERROR(CheckReplyType(reply, wire::Message::TAKERECORDSRESPONSE));
  const auto& r = reply.takerecordsresponse();
  HIGGINS_RETURN_IF_ERROR(OperationStatus(r.code(), r.errors()));
  return r.demand();
}

Status DecodeAcknowledge(const wire::Message& reply) {
  HIGGINS_RETURN_IF_ERROR(CheckReplyType(reply, wire::Message::ACKNOWLEDGERESPONSE));
  const auto& r = reply.acknowledgeresponse();
  if (r.code() == wire::OK && r.error().empty() && r.failed_offsets().empty()) {
    return Status::OK();
  }
  std::string text = r.error();
  if (text.empty() && !r.failed_offsets().empty()) {
    text = "the broker did not acknowledge:";
    for (const wire::Offset& failed : r.failed_offsets()) text += "\n" + RangeText(failed);
  }
  return OperationStatus(r.code(), std::move(text));
}

Result<SubscriptionInfo> DecodeSubscription(const wire::Message& reply) {
  HIGGINS_RETURN_IF_ERROR(CheckReplyType(reply, wire::Message::GETSUBSCRIPTIONRESPONSE));
  const auto& r = reply.getsubscriptionresponse();
  HIGGINS_RETURN_IF_ERROR(OperationStatus(r.code(), r.errors()));
  SubscriptionInfo info;
  if (r.has_summary()) {
    HIGGINS_ASSIGN_OR_RETURN(info, DecodeSummary(r.summary()));
  } else {
    // The prototype's fields alone.
    HIGGINS_ASSIGN_OR_RETURN(info.id, IdText(r.subscription_id()));
    info.stream = r.stream();
  }
  info.partitions.reserve(static_cast<size_t>(r.offsets_size()));
  for (const wire::KeyOffset& offset : r.offsets()) {
    HIGGINS_ASSIGN_OR_RETURN(SubscriptionPartition p, DecodePartition(offset));
    info.partitions.push_back(std::move(p));
  }
  info.partitions_truncated = r.partitions_truncated();
  info.consumer_list.reserve(static_cast<size_t>(r.client_counts_size()));
  for (const wire::ClientCount& consumer : r.client_counts()) {
    info.consumer_list.push_back({consumer.client_id(), consumer.count(), consumer.in_flight()});
  }
  return info;
}

Result<std::vector<SubscriptionInfo>> DecodeSubscriptionList(const wire::Message& reply) {
  HIGGINS_RETURN_IF_ERROR(CheckReplyType(reply, wire::Message::GETSUBSCRIPTIONRESPONSE));
  const auto& r = reply.getsubscriptionresponse();
  HIGGINS_RETURN_IF_ERROR(OperationStatus(r.code(), r.errors()));
  std::vector<SubscriptionInfo> out;
  out.reserve(static_cast<size_t>(r.subscriptions_size()));
  for (const wire::SubscriptionSummary& summary : r.subscriptions()) {
    HIGGINS_ASSIGN_OR_RETURN(SubscriptionInfo info, DecodeSummary(summary));
    out.push_back(std::move(info));
  }
  return out;
}

Result<Delivery> DecodeDelivery(PushedRecord pushed) {
  Delivery out;
  HIGGINS_ASSIGN_OR_RETURN(out.subscription_id, IdText(pushed.subscription_id));
  auto records = DecodeRecord(&pushed.record);
  if (!records.ok()) {
    return Status(records.status().code(), "push of subscription " + out.subscription_id + ": " +
                                               records.status().message());
  }
  out.records = *std::move(records);
  return out;
}

}  // namespace higgins::client_internal
