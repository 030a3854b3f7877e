#include "client/requests.h"

#include <algorithm>
#include <utility>

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
    default: return std::string("the ") + protocol::MessageTypeName(type) + " request";
  }
}

}  // namespace higgins::client_internal
