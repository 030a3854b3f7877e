#include "client/requests.h"

#include <algorithm>
#include <utility>

#include "common/quote.h"
#include "higgins/arrow/ipc/writer.h"
#include "protocol/messages.h"
#include "protocol/partition_name.h"

namespace higgins::client_internal {

namespace wire = higgins::wire;

namespace {

std::string Bytes(std::span<const uint8_t> bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace

wire::Message PingRequest(std::string_view data) {
  wire::Message m;
  m.set_type(wire::Message::PING);
  m.mutable_ping()->set_data(std::string(data));
  return m;
}

wire::Message CreateConfigurationRequest(std::string_view toml) {
  wire::Message m;
  m.set_type(wire::Message::CREATECONFIGURATIONREQUEST);
  m.mutable_createconfigurationrequest()->set_data(std::string(toml));
  return m;
}

wire::Message DeleteConfigurationRequest(std::string_view key) {
  wire::Message m;
  m.set_type(wire::Message::DELETECONFIGURATIONREQUEST);
  m.mutable_deleteconfigurationrequest()->set_key(std::string(key));
  return m;
}

wire::Message GetTopographyRequest() {
  wire::Message m;
  m.set_type(wire::Message::GETCURRENTTOPOGRAPHYREQUEST);
  m.mutable_getcurrenttopographyrequest();
  return m;
}

wire::Message UploadModuleRequest(std::string_view name, std::span<const uint8_t> wasm) {
  wire::Message m;
  m.set_type(wire::Message::UPLOADMODULEREQUEST);
  auto* request = m.mutable_uploadmodulerequest();
  request->set_name(std::string(name));
  request->set_value(Bytes(wasm));
  return m;
}

wire::Message MetadataRequest(std::string_view stream) {
  wire::Message m;
  m.set_type(wire::Message::METADATAREQUEST);
  m.mutable_metadatarequest()->set_name(std::string(stream));
  return m;
}

namespace {

uint32_t WaitTimeoutMs(const CallOptions& options) {
  const auto ms = options.wait_timeout.count();
  return static_cast<uint32_t>(std::clamp<int64_t>(ms, 1, UINT32_MAX));
}

}  // namespace

wire::Message ProduceRequest(std::string_view stream, std::string payload,
                             wire::PayloadFormat format, const CallOptions& options) {
  wire::Message m;
  m.set_type(wire::Message::PRODUCEREQUEST);
  auto* request = m.mutable_producerequest();
  request->set_stream_name(std::string(stream));
  request->set_payload(std::move(payload));
  request->set_format(format);
  if (options.wait_for_derived) {
    request->set_wait_for_derived(true);
    request->set_wait_timeout_ms(WaitTimeoutMs(options));
  }
  return m;
}

// (stream, partition key) is the order of every query (docs/protocol.md, "Queries").
// NOLINTNEXTLINE(bugprone-easily-swappable-parameters)
wire::Message QueryRequest(std::string_view stream, std::string_view partition_key,
                           const IndexQuery& query, const CallOptions& options) {
  wire::Message m;
  m.set_type(wire::Message::GETINDEXREQUEST);
  wire::Index* index = m.mutable_getindexrequest()->add_indexes();
  index->set_type(query.type);
  index->set_stream(std::string(stream));
  index->set_partition(protocol::EncodePartitionName(partition_key));
  if (query.index) index->set_index(*query.index);
  if (query.end) index->set_end(*query.end);
  if (query.timestamp) index->set_timestamp(*query.timestamp);
  if (options.wait_for_derived) {
    m.mutable_getindexrequest()->set_wait_for_derived(true);
    m.mutable_getindexrequest()->set_wait_timeout_ms(WaitTimeoutMs(options));
  }
  return m;
}

wire::Message CreateSubscriptionRequest(std::string_view stream, const SubscriptionStart& start,
                                        uint64_t timeout_ms) {
  wire::Message m;
  m.set_type(wire::Message::CREATESUBSCRIPTIONREQUEST);
  auto* request = m.mutable_createsubscriptionrequest();
  request->set_stream_name(std::string(stream));
  switch (start.kind) {
    case SubscriptionStart::Kind::kBeginning: request->set_offset_type(wire::FROM_BEGINNING); break;
    case SubscriptionStart::Kind::kCurrent: request->set_offset_type(wire::CURRENT); break;
    case SubscriptionStart::Kind::kOffset:
      request->set_offset_type(wire::FROM_OFFSET);
      request->set_offset(start.value);
      break;
    case SubscriptionStart::Kind::kTimestamp:
      request->set_offset_type(wire::FROM_TIMESTAMP);
      request->set_timestamp(start.value);
      break;
  }
  if (timeout_ms != 0) request->set_timeout_ms(timeout_ms);
  return m;
}

wire::Message TakeRecordsRequest(std::string_view subscription_id, uint64_t n,
                                 std::string_view stream) {
  wire::Message m;
  m.set_type(wire::Message::TAKERECORDSREQUEST);
  auto* request = m.mutable_takerecordsrequest();
  request->set_n(n);
  request->set_stream_name(std::string(stream));
  request->set_subscription_id(std::string(subscription_id));
  return m;
}

Result<wire::Message> AcknowledgeRequest(std::string_view subscription_id,
                                         std::span<const AckRange> ranges,
                                         std::string_view stream) {
  for (size_t i = 0; i < ranges.size(); ++i) {
    const AckRange& range = ranges[i];
    if (range.end <= range.start) {
      return Status::InvalidArgument(
          "range " + std::to_string(i) + " of partition " + Quote(range.partition_key) + ": [" +
          std::to_string(range.start) + ", " + std::to_string(range.end) +
          ") is empty (the end is exclusive: [" + std::to_string(range.start) + ", " +
          std::to_string(range.start + 1) + ") acknowledges offset " + std::to_string(range.start) +
          ")");
    }
  }
  wire::Message m;
  m.set_type(wire::Message::ACKNOWLEDGEREQUEST);
  auto* request = m.mutable_acknowledgerequest();
  request->set_stream(std::string(stream));
  request->set_subscription_id(std::string(subscription_id));
  for (const AckRange& range : ranges) {
    wire::Offset* offset = request->add_offsets();
    offset->set_key(protocol::EncodePartitionName(range.partition_key));
    // AckRange is [start, end); the wire's Range includes its end (empty ones were refused).
    offset->mutable_range()->set_start(range.start);
    offset->mutable_range()->set_end(range.end - 1);
  }
  return m;
}

wire::Message ListSubscriptionsRequest(std::string_view stream) {
  wire::Message m;
  m.set_type(wire::Message::GETSUBSCRIPTIONREQUEST);
  m.mutable_getsubscriptionrequest()->set_stream(std::string(stream));
  return m;
}

wire::Message GetSubscriptionRequest(const SubscriptionId& id, std::string_view stream) {
  wire::Message m = ListSubscriptionsRequest(stream);
  m.mutable_getsubscriptionrequest()->set_subscription_id(id.bytes());
  return m;
}

wire::Message DeleteSubscriptionRequest(const SubscriptionId& id, std::string_view stream) {
  wire::Message m;
  m.set_type(wire::Message::DELETESUBSCRIPTIONREQUEST);
  auto* request = m.mutable_deletesubscriptionrequest();
  request->set_subscription_id(id.bytes());
  request->set_stream(std::string(stream));
  return m;
}

Result<std::string> EncodeBatches(std::span<const arrow::RecordBatch> batches) {
  if (batches.empty()) return Status::InvalidArgument("no record batches to produce");
  arrow::ipc::StreamWriter writer(batches[0].schema());
  HIGGINS_RETURN_IF_ERROR(writer.status());
  for (size_t i = 0; i < batches.size(); ++i) {
    if (batches[i].schema()->fields() != batches[0].schema()->fields()) {
      return Status::InvalidArgument("batch " + std::to_string(i) +
                                     " does not have the fields of batch 0");
    }
    HIGGINS_RETURN_IF_ERROR(
        writer.WriteBatch(batches[i]).WithContext("batch " + std::to_string(i)));
  }
  HIGGINS_ASSIGN_OR_RETURN(Buffer stream, writer.Finish());
  return std::string(stream.view());
}

std::string RequestName(higgins::wire::Message::Type type) {
  using higgins::wire::Message;
  switch (type) {
    case Message::PING: return "the ping";
    case Message::PRODUCEREQUEST: return "the produce request";
    case Message::GETINDEXREQUEST: return "the query";
    case Message::METADATAREQUEST: return "the metadata request";
    case Message::CREATECONFIGURATIONREQUEST: return "the configuration upload";
    case Message::DELETECONFIGURATIONREQUEST: return "the configuration delete";
    case Message::GETCURRENTTOPOGRAPHYREQUEST: return "the topography request";
    case Message::UPLOADMODULEREQUEST: return "the module upload";
    case Message::CREATESUBSCRIPTIONREQUEST: return "the subscription create request";
    case Message::TAKERECORDSREQUEST: return "the take";
    case Message::ACKNOWLEDGEREQUEST: return "the acknowledgement";
    case Message::GETSUBSCRIPTIONREQUEST: return "the subscription request";
    case Message::DELETESUBSCRIPTIONREQUEST: return "the subscription delete request";
    default: return std::string("the ") + protocol::MessageTypeName(type) + " request";
  }
}

}  // namespace higgins::client_internal
