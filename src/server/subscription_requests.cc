#include "server/subscription_requests.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "common/quote.h"
#include "protocol/partition_name.h"
#include "protocol/reply_size.h"
#include "server/wire_replies.h"

namespace higgins::server {
namespace {

using higgins::wire::Message;

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

subscription::SubscriptionStartKind FromProto(higgins::wire::ConsumerOffsetType type) {
  switch (type) {
    case higgins::wire::FROM_TIMESTAMP: return subscription::SubscriptionStartKind::kTimestamp;
    case higgins::wire::FROM_OFFSET: return subscription::SubscriptionStartKind::kOffset;
    case higgins::wire::CURRENT: return subscription::SubscriptionStartKind::kCurrent;
    default: return subscription::SubscriptionStartKind::kBeginning;
  }
}

higgins::wire::ConsumerOffsetType ToProto(subscription::SubscriptionStartKind kind) {
  switch (kind) {
    case subscription::SubscriptionStartKind::kTimestamp: return higgins::wire::FROM_TIMESTAMP;
    case subscription::SubscriptionStartKind::kOffset: return higgins::wire::FROM_OFFSET;
    case subscription::SubscriptionStartKind::kCurrent: return higgins::wire::CURRENT;
    default: return higgins::wire::FROM_BEGINNING;
  }
}

void FillSummary(const subscription::SubscriptionReport& report,
                 higgins::wire::SubscriptionSummary* out) {
  out->set_subscription_id(report.decl.id.value());
  out->set_stream(report.decl.stream);
  out->set_offset_type(ToProto(report.decl.start));
  out->set_timeout_ms(report.decl.timeout_ms);
  out->set_consumers(report.consumers);
  out->set_unacknowledged(report.unacknowledged);
  out->set_pending(report.pending);
  out->set_durable(report.durable);
}

}  // namespace

Result<SubscriptionId> DecodeSubscriptionId(std::string_view wire) {
  if (wire.size() == 16) return SubscriptionId(std::string(wire));
  std::string hex;
  if (wire.size() == 36) {
    for (size_t i = 0; i < wire.size(); ++i) {
      const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
      if (dash != (wire[i] == '-')) {
        hex.clear();
        break;
      }
      if (!dash) hex.push_back(wire[i]);
    }
  } else if (wire.size() == 32) {
    hex = std::string(wire);
  }
  std::string id;
  if (hex.size() == 32) {
    for (size_t i = 0; i < 32; i += 2) {
      const int hi = HexValue(hex[i]);
      const int lo = HexValue(hex[i + 1]);
      if (hi < 0 || lo < 0) {
        id.clear();
        break;
      }
      id.push_back(static_cast<char>(hi * 16 + lo));
    }
  }
  if (id.size() == 16) return SubscriptionId(std::move(id));
  if (wire.empty()) return Status::InvalidArgument("the subscription id is missing");
  return Status::InvalidArgument(
      "a subscription id is 16 bytes, or a UUID in text (8-4-4-4-12 hex digits); got " +
      std::to_string(wire.size()) + " bytes");
}

Message SubscriptionRequests::Create(const Message& request) {
  Message r = ReplyTo(request, Message::CREATESUBSCRIPTIONRESPONSE);
  auto* response = r.mutable_createsubscriptionresponse();
  const auto& body = request.createsubscriptionrequest();
  if (!higgins::wire::ConsumerOffsetType_IsValid(body.offset_type())) {
    SetError(response,
             Status::InvalidArgument("unknown offset_type " + std::to_string(body.offset_type())));
    return r;
  }
  const subscription::SubscriptionStartKind start = FromProto(body.offset_type());
  uint64_t value = 0;
  Status missing;
  if (start == subscription::SubscriptionStartKind::kOffset) {
    if (!body.has_offset()) missing = Status::InvalidArgument("FROM_OFFSET needs `offset`");
    value = body.offset();
  } else if (start == subscription::SubscriptionStartKind::kTimestamp) {
    if (!body.has_timestamp()) {
      missing =
          Status::InvalidArgument("FROM_TIMESTAMP needs `timestamp` (ms since the Unix epoch)");
    }
    value = body.timestamp();
  }
  if (!missing.ok()) {
    SetError(response, missing);
    return r;
  }
  // Clamped: a timeout beyond int64 ms is over the maximum all the same.
  const std::chrono::milliseconds timeout(
      static_cast<int64_t>(std::min<uint64_t>(body.timeout_ms(), INT64_MAX)));
  auto id = broker_->CreateSubscription(body.stream_name(), broker::SubscriptionStart{start, value},
                                        timeout);
  if (!id.ok()) {
    SetError(response, id.status());
    return r;
  }
  response->set_subscription_id(id->value());
  return r;
}

namespace {

/// A push message of `id` with no records yet.
Message EmptyPush(const SubscriptionId& id) {
  Message m;
  m.set_type(Message::TAKERECORDSRESPONSE);
  auto* body = m.mutable_takerecordsresponse();
  body->set_push(true);
  body->set_subscription_id(id.value());
  return m;
}

/// Bytes `record` takes in a TakeRecordsResponse (with its tag and length).
size_t RecordBytes(const higgins::wire::Record& record) {
  return protocol::FieldBytes(higgins::wire::TakeRecordsResponse::kRecordsFieldNumber,
                              record.ByteSizeLong());
}

/// The wire Records of one push: one, or its records split into consecutive runs when one
/// Record would not fit in a push of its own (`empty`: the size of a push with no records).
Status AppendRecords(const subscription::SubscriptionPush& push, const protocol::ReplySize& empty,
                     std::vector<higgins::wire::Record>& out) {
  const stream::QueryRows& rows = push.records.rows;
  HIGGINS_ASSIGN_OR_RETURN(std::string data, EncodeIpc(rows.batch.schema(), &rows.batch));
  higgins::wire::Record record;
  const auto& window = push.records.window;
  FillRecord(&record, std::move(data), push.stream, push.key, push.records.offset, rows,
             window ? &*window : nullptr);
  record.set_redelivered(push.redelivered);
  const size_t bytes = RecordBytes(record);
  if (empty.Fits(bytes)) {
    out.push_back(std::move(record));
    return Status::OK();
  }
  const int64_t n = rows.batch.num_rows();
  if (n <= 1 || push.records.window) {
    return Status::ResourceExhausted(
        "a push of " + std::to_string(n) + " record(s) of partition " + Quote(push.key) +
        " at offset " + std::to_string(push.records.offset) + " takes " +
        std::to_string(empty.TotalWith(bytes)) + " bytes, more than the frame limit of " +
        std::to_string(empty.limit()));
  }
  // Two halves, each split again if need be: consecutive offsets, in order.
  const int64_t half = n / 2;
  for (auto [from, length] : {std::pair<int64_t, int64_t>{0, half}, {half, n - half}}) {
    subscription::SubscriptionPush part;
    part.subscription_id = push.subscription_id;
    part.stream = push.stream;
    part.key = push.key;
    part.redelivered = push.redelivered;
    part.records.rows.batch = rows.batch.Slice(from, length);
    part.records.rows.first_offset = rows.first_offset + static_cast<uint64_t>(from);
    part.records.rows.timestamps_ms.assign(rows.timestamps_ms.begin() + from,
                                           rows.timestamps_ms.begin() + from + length);
    part.records.offset = push.records.offset + static_cast<uint64_t>(from);
    HIGGINS_RETURN_IF_ERROR(AppendRecords(part, empty, out));
  }
  return Status::OK();
}

/// A push of `id` with `status` (its `errors`, at most what fits in `max_bytes`, and `code`)
/// and no records.
Message ErrorPush(const SubscriptionId& id, const Status& status, size_t max_bytes) {
  Message m = EmptyPush(id);
  auto* body = m.mutable_takerecordsresponse();
  SetErrorWithin(body, status, protocol::ReplySize(m, *body, max_bytes));
  return m;
}

}  // namespace

SubscriptionRequests::PushFrames SubscriptionRequests::PushMessages(
    std::span<const subscription::SubscriptionPush> pushes, size_t max_bytes) {
  PushFrames frames;
  std::vector<Message>& out = frames.messages;
  if (pushes.empty()) return frames;
  const SubscriptionId& id = pushes.front().subscription_id;
  Message empty_push = EmptyPush(id);
  const protocol::ReplySize empty(empty_push, empty_push.takerecordsresponse(), max_bytes);
  std::vector<higgins::wire::Record> records;
  std::optional<protocol::ReplySize> current;  // of out.back() while it takes more records
  for (const subscription::SubscriptionPush& push : pushes) {
    if (!push.ended.ok()) {
      out.push_back(ErrorPush(id, push.ended, max_bytes));
      current.reset();
      continue;
    }
    records.clear();
    if (Status s = AppendRecords(push, empty, records); !s.ok()) {
      // The consumer hears of it (the records stay in flight, and come back as this error at
      // each visibility timeout until the limit is raised) instead of waiting in silence.
      out.push_back(ErrorPush(id, s, max_bytes));
      current.reset();
      frames.failed.push_back(std::move(s));
      continue;
    }
    for (higgins::wire::Record& record : records) {
      const size_t bytes = RecordBytes(record);
      if (!current || !current->Fits(bytes)) {
        out.push_back(EmptyPush(id));
        current = empty;
      }
      current->Add(bytes);
      *out.back().mutable_takerecordsresponse()->add_records() = std::move(record);
    }
  }
  return frames;
}

Message SubscriptionRequests::Take(const Message& request, const Connection* connection) {
  Message r = ReplyTo(request, Message::TAKERECORDSRESPONSE);
  auto* response = r.mutable_takerecordsresponse();
  const auto& body = request.takerecordsrequest();
  auto id = DecodeSubscriptionId(body.subscription_id());
  if (!id.ok()) {
    SetError(response, id.status());
    return r;
  }
  response->set_subscription_id(id->value());
  if (connection == nullptr || !connection->push) {
    SetError(response, Status::NotSupported("takes need a connection to push records on"));
    return r;
  }
  auto push = connection->push;
  subscription::PushSink sink;
  sink.ready = connection->ready;
  sink.push = [push, max_bytes = max_push_bytes_](std::vector<subscription::SubscriptionPush> p) {
    PushFrames frames = PushMessages(p, max_bytes);
    for (const Status& failed : frames.failed) {
      // Stays in flight: pushed again after the visibility timeout.
      spdlog::warn("subscription {}: cannot push records: {}",
                   subscription::SubscriptionManager::IdText(p.front().subscription_id),
                   failed.ToString());
    }
    for (Message& message : frames.messages) push(std::move(message));
  };
  auto demand = broker_->Take(*id, body.stream_name(), ConsumerId(connection->id), body.n(),
                              std::move(sink));
  if (!demand.ok()) {
    SetError(response, demand.status());
    return r;
  }
  response->set_demand(*demand);
  return r;
}

namespace {

/// Fills the failure of an acknowledgement reply `r` (its stream and id set): `code`, the
/// `error` lines and `failed_offsets`, as many of each as fit in `max_bytes` (half the room for
/// each); a last line says how many were left out.
void FillAcknowledgeFailure(Message* r, const Status& s,
                            const std::vector<subscription::OffsetRange>& failed,
                            size_t max_bytes) {
  using higgins::wire::AcknowledgeSubscriptionOffsetsResponse;
  auto* response = r->mutable_acknowledgeresponse();
  response->set_code(protocol::ToErrorCode(s.code()));
  // Room for the line that says what was left out, and the error's tag and length.
  constexpr size_t kReserved = 128;
  const protocol::ReplySize size(*r, *response, max_bytes);
  const size_t room = size.Room() > kReserved ? size.Room() - kReserved : 0;
  std::string error;
  size_t lines_left_out = 0;
  for (const std::string& line : ErrorLines(s)) {
    if (lines_left_out == 0 && error.size() + line.size() + 1 <= room / 2) {
      if (!error.empty()) error += "\n";
      error += line;
    } else {
      ++lines_left_out;
    }
  }
  size_t offset_bytes = 0;
  size_t ranges_left_out = 0;
  for (const subscription::OffsetRange& range : failed) {
    higgins::wire::Offset offset;
    offset.set_key(protocol::EncodePartitionName(range.key));
    offset.mutable_range()->set_start(range.start);
    offset.mutable_range()->set_end(range.end - 1);
    const size_t bytes = protocol::FieldBytes(
        AcknowledgeSubscriptionOffsetsResponse::kFailedOffsetsFieldNumber, offset.ByteSizeLong());
    if (ranges_left_out == 0 && offset_bytes + bytes <= room - error.size()) {
      *response->add_failed_offsets() = std::move(offset);
      offset_bytes += bytes;
    } else {
      ++ranges_left_out;
    }
  }
  if (lines_left_out > 0 || ranges_left_out > 0) {
    error += std::string(error.empty() ? "" : "\n") + "... " + std::to_string(lines_left_out) +
             " more error line(s) and " + std::to_string(ranges_left_out) +
             " more failed range(s), left out to keep the reply within the frame limit";
  }
  response->set_error(std::move(error));
}

}  // namespace

void SubscriptionRequests::Acknowledge(const Message& request, const Reply& reply) {
  const auto& body = request.acknowledgerequest();
  Message r = ReplyTo(request, Message::ACKNOWLEDGERESPONSE);
  auto* response = r.mutable_acknowledgeresponse();
  response->set_stream(body.stream());
  response->set_subscription_id(body.subscription_id());
  auto fail = [max_bytes = max_push_bytes_](Message r, const Status& s,
                                            const std::vector<subscription::OffsetRange>& failed) {
    FillAcknowledgeFailure(&r, s, failed, max_bytes);
    return r;
  };
  auto id = DecodeSubscriptionId(body.subscription_id());
  if (!id.ok()) return reply(fail(std::move(r), id.status(), {}));
  std::vector<subscription::OffsetRange> ranges;
  std::string errors;
  for (int i = 0; i < body.offsets_size(); ++i) {
    const auto& offset = body.offsets(i);
    auto key = protocol::DecodePartitionName(offset.key());
    if (!key.ok()) {
      errors += "offsets " + std::to_string(i) + ": " + key.status().message() + "\n";
      continue;
    }
    // On the wire both ends are included (the prototype acknowledged offset o as {o, o}).
    const uint64_t start = offset.range().start();
    const uint64_t end = offset.range().end();
    if (end < start || end == UINT64_MAX) {
      errors += "offsets " + std::to_string(i) + ": the range " + std::to_string(start) + " to " +
                std::to_string(end) +
                (end < start ? " ends before it starts" : " reaches past the largest offset") +
                " (both ends are included: {o, o} acknowledges offset o)\n";
      continue;
    }
    ranges.push_back({*key, start, end + 1});
  }
  if (!errors.empty()) {
    errors.pop_back();
    return reply(fail(std::move(r), Status::InvalidArgument(errors), {}));
  }
  if (ranges.empty()) {
    return reply(fail(std::move(r), Status::InvalidArgument("no offsets to acknowledge"), {}));
  }
  broker_->Acknowledge(*id, body.stream(), std::move(ranges),
                       [r = std::move(r), reply, fail](
                           const Status& s,
                           const std::vector<subscription::OffsetRange>& failed) mutable {
                         if (!s.ok()) return reply(fail(std::move(r), s, failed));
                         reply(std::move(r));
                       });
}

Message SubscriptionRequests::Get(const Message& request) {
  Message r = ReplyTo(request, Message::GETSUBSCRIPTIONRESPONSE);
  auto* response = r.mutable_getsubscriptionresponse();
  const auto& body = request.getsubscriptionrequest();
  if (body.subscription_id().empty()) {
    auto reports = broker_->ListSubscriptions(body.stream());
    if (!reports.ok()) {
      SetError(response, reports.status());
      return r;
    }
    protocol::ReplySize size(r, *response, max_push_bytes_);
    for (const subscription::SubscriptionReport& report : *reports) {
      auto* summary = response->add_subscriptions();
      FillSummary(report, summary);
      const size_t bytes =
          protocol::FieldBytes(higgins::wire::GetSubscriptionResponse::kSubscriptionsFieldNumber,
                               summary->ByteSizeLong());
      if (!size.Fits(bytes)) {
        response->Clear();
        SetError(response, Status::ResourceExhausted(
                               "the list of " + std::to_string(reports->size()) +
                               " subscriptions passes the frame limit of " +
                               std::to_string(max_push_bytes_) + " bytes; ask for one stream"));
        return r;
      }
      size.Add(bytes);
    }
    return r;
  }
  auto id = DecodeSubscriptionId(body.subscription_id());
  if (!id.ok()) {
    SetError(response, id.status());
    return r;
  }
  auto report = broker_->GetSubscription(*id, body.stream());
  if (!report.ok()) {
    SetError(response, report.status());
    return r;
  }
  response->set_stream(report->decl.stream);
  response->set_subscription_id(report->decl.id.value());
  FillSummary(*report, response->mutable_summary());
  for (const auto& c : report->consumer_list) {
    auto* client = response->add_client_counts();
    client->set_client_id(c.id.value());
    client->set_count(c.demand);
    client->set_in_flight(c.in_flight);
  }
  // As many partitions as fit in the frame with everything else (the consumers included): a
  // subscription of many partitions stays inspectable under a small --max-frame-bytes. The
  // truncation flag's few bytes are counted before the partitions.
  response->set_partitions_truncated(true);
  protocol::ReplySize size(r, *response, max_push_bytes_);
  bool truncated = report->partitions_truncated;
  for (const auto& p : report->partitions) {
    auto* offset = response->add_offsets();
    offset->set_key(protocol::EncodePartitionName(p.key));
    offset->set_last_completed_offset(p.watermark > 0 ? p.watermark - 1 : 0);
    offset->set_max_offset(p.count > 0 ? p.count - 1 : 0);
    offset->set_watermark(p.watermark);
    offset->set_count(p.count);
    offset->set_next_offset(p.next);
    offset->set_unacknowledged(p.unacknowledged);
    offset->set_acknowledged_above(p.acknowledged_above);
    const size_t bytes = protocol::FieldBytes(
        higgins::wire::GetSubscriptionResponse::kOffsetsFieldNumber, offset->ByteSizeLong());
    if (!size.Fits(bytes)) {
      response->mutable_offsets()->RemoveLast();
      truncated = true;
      break;
    }
    size.Add(bytes);
  }
  response->set_partitions_truncated(truncated);
  return r;
}

Message SubscriptionRequests::Delete(const Message& request) {
  Message r = ReplyTo(request, Message::DELETESUBSCRIPTIONRESPONSE);
  auto* response = r.mutable_deletesubscriptionresponse();
  const auto& body = request.deletesubscriptionrequest();
  auto id = DecodeSubscriptionId(body.subscription_id());
  Status s = id.ok() ? broker_->DeleteSubscription(*id, body.stream()) : id.status();
  if (!s.ok()) SetError(response, s);
  return r;
}

}  // namespace higgins::server
