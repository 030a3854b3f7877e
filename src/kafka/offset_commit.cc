#include "kafka/offset_commit.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {
namespace {

// Smallest encodings of one array element, which bound the counts a reader accepts.
constexpr size_t kMinTopicBytes = 2 + 4;
constexpr size_t kMinPartitionBytes = 4 + 8 + 2;  // v6 adds 4
constexpr size_t kMinPartitionResponseBytes = 4 + 2;

OffsetCommitTopic DecodeTopic(Reader& reader, int16_t version) {
  OffsetCommitTopic t;
  t.name = reader.String();
  const int32_t partitions = reader.ArrayLength(kMinPartitionBytes);
  t.partitions.reserve(partitions);
  for (int32_t i = 0; i < partitions && reader.ok(); ++i) {
    OffsetCommitPartition p;
    p.partition_index = reader.Int32();
    p.committed_offset = reader.Int64();
    if (version >= 6) p.committed_leader_epoch = reader.Int32();
    p.committed_metadata = reader.NullableString();
    t.partitions.push_back(p);
  }
  return t;
}

}  // namespace

Result<OffsetCommitRequest> DecodeOffsetCommitRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kOffsetCommit, version));
  OffsetCommitRequest request;
  request.group_id = reader.String();
  request.generation_id = reader.Int32();
  request.member_id = reader.String();
  if (version >= 7) request.group_instance_id = reader.NullableString();
  if (version <= 4) request.retention_time_ms = reader.Int64();
  const int32_t topics = reader.ArrayLength(kMinTopicBytes);
  request.topics.reserve(topics);
  for (int32_t i = 0; i < topics && reader.ok(); ++i) {
    request.topics.push_back(DecodeTopic(reader, version));
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("OffsetCommit request"));
  return request;
}

void EncodeOffsetCommitRequest(const OffsetCommitRequest& request, int16_t version,
                               Writer& writer) {
  internal::AssertVersion(ApiKey::kOffsetCommit, version);
  writer.String(request.group_id);
  writer.Int32(request.generation_id);
  writer.String(request.member_id);
  if (version >= 7) writer.NullableString(request.group_instance_id);
  if (version <= 4) writer.Int64(request.retention_time_ms);
  writer.ArrayLength(request.topics.size());
  for (const OffsetCommitTopic& t : request.topics) {
    writer.String(t.name);
    writer.ArrayLength(t.partitions.size());
    for (const OffsetCommitPartition& p : t.partitions) {
      writer.Int32(p.partition_index);
      writer.Int64(p.committed_offset);
      if (version >= 6) writer.Int32(p.committed_leader_epoch);
      writer.NullableString(p.committed_metadata);
    }
  }
}

void EncodeOffsetCommitResponse(const OffsetCommitResponse& response, int16_t version,
                                Writer& writer) {
  internal::AssertVersion(ApiKey::kOffsetCommit, version);
  if (version >= 3) writer.Int32(response.throttle_time_ms);
  writer.ArrayLength(response.topics.size());
  for (const OffsetCommitTopicResponse& t : response.topics) {
    writer.String(t.name);
    writer.ArrayLength(t.partitions.size());
    for (const OffsetCommitPartitionResponse& p : t.partitions) {
      writer.Int32(p.partition_index);
      writer.Int16(static_cast<int16_t>(p.error_code));
    }
  }
}

Result<OffsetCommitResponse> DecodeOffsetCommitResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kOffsetCommit, version));
  OffsetCommitResponse response;
  if (version >= 3) response.throttle_time_ms = reader.Int32();
  const int32_t topics = reader.ArrayLength(kMinTopicBytes);
  for (int32_t i = 0; i < topics && reader.ok(); ++i) {
    OffsetCommitTopicResponse t;
    t.name = reader.String();
    const int32_t partitions = reader.ArrayLength(kMinPartitionResponseBytes);
    for (int32_t j = 0; j < partitions && reader.ok(); ++j) {
      OffsetCommitPartitionResponse p;
      p.partition_index = reader.Int32();
      p.error_code = static_cast<ErrorCode>(reader.Int16());
      t.partitions.push_back(p);
    }
    response.topics.push_back(std::move(t));
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("OffsetCommit response"));
  return response;
}

}  // namespace higgins::kafka
