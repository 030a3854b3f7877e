#include "kafka/produce.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {
namespace {

constexpr size_t kMinTopicBytes = 2 + 4;
constexpr size_t kMinPartitionBytes = 4 + 4;
constexpr size_t kMinPartitionResponseBytes = 4 + 2 + 8;

}  // namespace

Result<ProduceRequest> DecodeProduceRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kProduce, version));
  ProduceRequest request;
  if (version >= 3) request.transactional_id = reader.NullableString();
  request.acks = reader.Int16();
  request.timeout_ms = reader.Int32();
  const int32_t topics = reader.ArrayLength(kMinTopicBytes);
  request.topics.reserve(topics);
  for (int32_t i = 0; i < topics && reader.ok(); ++i) {
    ProduceTopicData& topic = request.topics.emplace_back();
    topic.name = reader.String();
    const int32_t partitions = reader.ArrayLength(kMinPartitionBytes);
    topic.partitions.reserve(partitions);
    for (int32_t j = 0; j < partitions && reader.ok(); ++j) {
      ProducePartitionData& partition = topic.partitions.emplace_back();
      partition.index = reader.Int32();
      partition.records = reader.NullableBytes();
    }
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("Produce request"));
  return request;
}

void EncodeProduceRequest(const ProduceRequest& request, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kProduce, version);
  if (version >= 3) writer.NullableString(request.transactional_id);
  writer.Int16(request.acks);
  writer.Int32(request.timeout_ms);
  writer.ArrayLength(request.topics.size());
  for (const ProduceTopicData& topic : request.topics) {
    writer.String(topic.name);
    writer.ArrayLength(topic.partitions.size());
    for (const ProducePartitionData& partition : topic.partitions) {
      writer.Int32(partition.index);
      writer.NullableBytes(partition.records);
    }
  }
}

void EncodeProduceResponse(const ProduceResponse& response, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kProduce, version);
  writer.ArrayLength(response.topics.size());
  for (const ProduceTopicResponse& topic : response.topics) {
    writer.String(topic.name);
    writer.ArrayLength(topic.partitions.size());
    for (const ProducePartitionResponse& p : topic.partitions) {
      writer.Int32(p.index);
      writer.Int16(static_cast<int16_t>(p.error_code));
      writer.Int64(p.base_offset);
      if (version >= 2) writer.Int64(p.log_append_time_ms);
      if (version >= 5) writer.Int64(p.log_start_offset);
    }
  }
  if (version >= 1) writer.Int32(response.throttle_time_ms);
}

Result<ProduceResponse> DecodeProduceResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kProduce, version));
  ProduceResponse response;
  const int32_t topics = reader.ArrayLength(kMinTopicBytes);
  for (int32_t i = 0; i < topics && reader.ok(); ++i) {
    ProduceTopicResponse& topic = response.topics.emplace_back();
    topic.name = reader.String();
    const int32_t partitions = reader.ArrayLength(kMinPartitionResponseBytes);
    for (int32_t j = 0; j < partitions && reader.ok(); ++j) {
      ProducePartitionResponse& p = topic.partitions.emplace_back();
      p.index = reader.Int32();
      p.error_code = static_cast<ErrorCode>(reader.Int16());
      p.base_offset = reader.Int64();
      if (version >= 2) p.log_append_time_ms = reader.Int64();
      if (version >= 5) p.log_start_offset = reader.Int64();
    }
  }
  if (version >= 1) response.throttle_time_ms = reader.Int32();
  HIGGINS_RETURN_IF_ERROR(reader.Finish("Produce response"));
  return response;
}

}  // namespace higgins::kafka
