#include "kafka/list_offsets.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {
namespace {

constexpr size_t kMinTopicBytes = 2 + 4;
constexpr size_t kPartitionBytes = 4 + 8;
constexpr size_t kPartitionResponseBytes = 4 + 2 + 8 + 8;

}  // namespace

Result<ListOffsetsRequest> DecodeListOffsetsRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kListOffsets, version));
  ListOffsetsRequest request;
  request.replica_id = reader.Int32();
  if (version >= 2) request.isolation_level = reader.Int8();
  const int32_t topics = reader.ArrayLength(kMinTopicBytes);
  request.topics.reserve(topics);
  for (int32_t i = 0; i < topics && reader.ok(); ++i) {
    ListOffsetsTopic& topic = request.topics.emplace_back();
    topic.name = reader.String();
    topic.partitions.resize(reader.ArrayLength(kPartitionBytes));
    for (ListOffsetsPartition& p : topic.partitions) {
      p.partition_index = reader.Int32();
      p.timestamp = reader.Int64();
    }
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("ListOffsets request"));
  return request;
}

void EncodeListOffsetsRequest(const ListOffsetsRequest& request, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kListOffsets, version);
  writer.Int32(request.replica_id);
  if (version >= 2) writer.Int8(request.isolation_level);
  writer.ArrayLength(request.topics.size());
  for (const ListOffsetsTopic& topic : request.topics) {
    writer.String(topic.name);
    writer.ArrayLength(topic.partitions.size());
    for (const ListOffsetsPartition& p : topic.partitions) {
      writer.Int32(p.partition_index);
      writer.Int64(p.timestamp);
    }
  }
}

void EncodeListOffsetsResponse(const ListOffsetsResponse& response, int16_t version,
                               Writer& writer) {
  internal::AssertVersion(ApiKey::kListOffsets, version);
  if (version >= 2) writer.Int32(response.throttle_time_ms);
  writer.ArrayLength(response.topics.size());
  for (const ListOffsetsTopicResponse& topic : response.topics) {
    writer.String(topic.name);
    writer.ArrayLength(topic.partitions.size());
    for (const ListOffsetsPartitionResponse& p : topic.partitions) {
      writer.Int32(p.partition_index);
      writer.Int16(static_cast<int16_t>(p.error_code));
      writer.Int64(p.timestamp);
      writer.Int64(p.offset);
    }
  }
}

Result<ListOffsetsResponse> DecodeListOffsetsResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kListOffsets, version));
  ListOffsetsResponse response;
  if (version >= 2) response.throttle_time_ms = reader.Int32();
  const int32_t topics = reader.ArrayLength(kMinTopicBytes);
  for (int32_t i = 0; i < topics && reader.ok(); ++i) {
    ListOffsetsTopicResponse& topic = response.topics.emplace_back();
    topic.name = reader.String();
    topic.partitions.resize(reader.ArrayLength(kPartitionResponseBytes));
    for (ListOffsetsPartitionResponse& p : topic.partitions) {
      p.partition_index = reader.Int32();
      p.error_code = static_cast<ErrorCode>(reader.Int16());
      p.timestamp = reader.Int64();
      p.offset = reader.Int64();
    }
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("ListOffsets response"));
  return response;
}

}  // namespace higgins::kafka
