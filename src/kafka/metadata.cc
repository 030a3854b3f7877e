#include "kafka/metadata.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {
namespace {

// Smallest encodings of one array element, which bound the counts a reader accepts.
constexpr size_t kMinTopicNameBytes = 2;
constexpr size_t kMinBrokerBytes = 4 + 2 + 4 + 2;
constexpr size_t kMinTopicBytes = 2 + 2 + 1 + 4;
constexpr size_t kMinPartitionBytes = 2 + 4 + 4 + 4 + 4;

void EncodePartition(const MetadataPartition& p, int16_t version, Writer& writer) {
  writer.Int16(static_cast<int16_t>(p.error_code));
  writer.Int32(p.partition_index);
  writer.Int32(p.leader_id);
  if (version >= 7) writer.Int32(p.leader_epoch);
  internal::WriteInt32Array(p.replica_nodes, writer);
  internal::WriteInt32Array(p.isr_nodes, writer);
  if (version >= 5) internal::WriteInt32Array(p.offline_replicas, writer);
}

MetadataPartition DecodePartition(Reader& reader, int16_t version) {
  MetadataPartition p;
  p.error_code = static_cast<ErrorCode>(reader.Int16());
  p.partition_index = reader.Int32();
  p.leader_id = reader.Int32();
  if (version >= 7) p.leader_epoch = reader.Int32();
  p.replica_nodes = internal::ReadInt32Array(reader);
  p.isr_nodes = internal::ReadInt32Array(reader);
  if (version >= 5) p.offline_replicas = internal::ReadInt32Array(reader);
  return p;
}

}  // namespace

Result<MetadataRequest> DecodeMetadataRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kMetadata, version));
  MetadataRequest request;
  if (const auto count = reader.NullableArrayLength(kMinTopicNameBytes)) {
    request.topics.emplace();
    request.topics->reserve(*count);
    for (int32_t i = 0; i < *count && reader.ok(); ++i) request.topics->push_back(reader.String());
  }
  if (version >= 4) request.allow_auto_topic_creation = reader.Boolean();
  if (version >= 8) {
    request.include_cluster_authorized_operations = reader.Boolean();
    request.include_topic_authorized_operations = reader.Boolean();
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("Metadata request"));
  return request;
}

void EncodeMetadataRequest(const MetadataRequest& request, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kMetadata, version);
  if (request.topics) {
    writer.ArrayLength(request.topics->size());
    for (std::string_view name : *request.topics) writer.String(name);
  } else {
    writer.NullArray();
  }
  if (version >= 4) writer.Boolean(request.allow_auto_topic_creation);
  if (version >= 8) {
    writer.Boolean(request.include_cluster_authorized_operations);
    writer.Boolean(request.include_topic_authorized_operations);
  }
}

void EncodeMetadataResponse(const MetadataResponse& response, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kMetadata, version);
  if (version >= 3) writer.Int32(response.throttle_time_ms);
  writer.ArrayLength(response.brokers.size());
  for (const MetadataBroker& b : response.brokers) {
    writer.Int32(b.node_id);
    writer.String(b.host);
    writer.Int32(b.port);
    writer.NullableString(b.rack);
  }
  if (version >= 2) writer.NullableString(response.cluster_id);
  writer.Int32(response.controller_id);
  writer.ArrayLength(response.topics.size());
  for (const MetadataTopic& t : response.topics) {
    writer.Int16(static_cast<int16_t>(t.error_code));
    writer.String(t.name);
    writer.Boolean(t.is_internal);
    writer.ArrayLength(t.partitions.size());
    for (const MetadataPartition& p : t.partitions) EncodePartition(p, version, writer);
    if (version >= 8) writer.Int32(t.topic_authorized_operations);
  }
  if (version >= 8) writer.Int32(response.cluster_authorized_operations);
}

Result<MetadataResponse> DecodeMetadataResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kMetadata, version));
  MetadataResponse response;
  if (version >= 3) response.throttle_time_ms = reader.Int32();
  const int32_t brokers = reader.ArrayLength(kMinBrokerBytes);
  for (int32_t i = 0; i < brokers && reader.ok(); ++i) {
    MetadataBroker b;
    b.node_id = reader.Int32();
    b.host = reader.String();
    b.port = reader.Int32();
    if (auto rack = reader.NullableString()) b.rack = std::string(*rack);
    response.brokers.push_back(std::move(b));
  }
  if (version >= 2) {
    if (auto id = reader.NullableString()) response.cluster_id = std::string(*id);
  }
  response.controller_id = reader.Int32();
  const int32_t topics = reader.ArrayLength(kMinTopicBytes);
  for (int32_t i = 0; i < topics && reader.ok(); ++i) {
    MetadataTopic t;
    t.error_code = static_cast<ErrorCode>(reader.Int16());
    t.name = reader.String();
    t.is_internal = reader.Boolean();
    const int32_t partitions = reader.ArrayLength(kMinPartitionBytes);
    for (int32_t j = 0; j < partitions && reader.ok(); ++j) {
      t.partitions.push_back(DecodePartition(reader, version));
    }
    if (version >= 8) t.topic_authorized_operations = reader.Int32();
    response.topics.push_back(std::move(t));
  }
  if (version >= 8) response.cluster_authorized_operations = reader.Int32();
  HIGGINS_RETURN_IF_ERROR(reader.Finish("Metadata response"));
  return response;
}

}  // namespace higgins::kafka
