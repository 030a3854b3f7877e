#include "kafka/offset_fetch.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {
namespace {

// Smallest encodings of one array element, which bound the counts a reader accepts.
constexpr size_t kMinTopicBytes = 2 + 4;
constexpr size_t kMinPartitionResponseBytes = 4 + 8 + 2 + 2;  // v5 adds 4

OffsetFetchPartitionResponse DecodePartition(Reader& reader, int16_t version) {
  OffsetFetchPartitionResponse p;
  p.partition_index = reader.Int32();
  p.committed_offset = reader.Int64();
  if (version >= 5) p.committed_leader_epoch = reader.Int32();
  p.metadata = internal::OwnedOrNull(reader.NullableString());
  p.error_code = static_cast<ErrorCode>(reader.Int16());
  return p;
}

}  // namespace

Result<OffsetFetchRequest> DecodeOffsetFetchRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kOffsetFetch, version));
  OffsetFetchRequest request;
  request.group_id = reader.String();
  std::optional<int32_t> count;
  if (version >= 2) {
    count = reader.NullableArrayLength(kMinTopicBytes);
  } else {
    count = reader.ArrayLength(kMinTopicBytes);
  }
  if (count) {
    request.topics->reserve(*count);
    for (int32_t i = 0; i < *count && reader.ok(); ++i) {
      OffsetFetchTopic t;
      t.name = reader.String();
      t.partition_indexes = internal::ReadInt32Array(reader);
      request.topics->push_back(std::move(t));
    }
  } else {
    request.topics.reset();
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("OffsetFetch request"));
  return request;
}

void EncodeOffsetFetchRequest(const OffsetFetchRequest& request, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kOffsetFetch, version);
  assert(version >= 2 || request.topics.has_value());
  writer.String(request.group_id);
  if (!request.topics) {
    writer.NullArray();
    return;
  }
  writer.ArrayLength(request.topics->size());
  for (const OffsetFetchTopic& t : *request.topics) {
    writer.String(t.name);
    internal::WriteInt32Array(t.partition_indexes, writer);
  }
}

void EncodeOffsetFetchResponse(const OffsetFetchResponse& response, int16_t version,
                               Writer& writer) {
  internal::AssertVersion(ApiKey::kOffsetFetch, version);
  if (version >= 3) writer.Int32(response.throttle_time_ms);
  writer.ArrayLength(response.topics.size());
  for (const OffsetFetchTopicResponse& t : response.topics) {
    writer.String(t.name);
    writer.ArrayLength(t.partitions.size());
    for (const OffsetFetchPartitionResponse& p : t.partitions) {
      writer.Int32(p.partition_index);
      writer.Int64(p.committed_offset);
      if (version >= 5) writer.Int32(p.committed_leader_epoch);
      writer.NullableString(p.metadata);
      writer.Int16(static_cast<int16_t>(p.error_code));
    }
  }
  if (version >= 2) writer.Int16(static_cast<int16_t>(response.error_code));
}

Result<OffsetFetchResponse> DecodeOffsetFetchResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kOffsetFetch, version));
  OffsetFetchResponse response;
  if (version >= 3) response.throttle_time_ms = reader.Int32();
  const int32_t topics = reader.ArrayLength(kMinTopicBytes);
  for (int32_t i = 0; i < topics && reader.ok(); ++i) {
    OffsetFetchTopicResponse t;
    t.name = reader.String();
    const int32_t partitions = reader.ArrayLength(kMinPartitionResponseBytes);
    for (int32_t j = 0; j < partitions && reader.ok(); ++j) {
      t.partitions.push_back(DecodePartition(reader, version));
    }
    response.topics.push_back(std::move(t));
  }
  if (version >= 2) response.error_code = static_cast<ErrorCode>(reader.Int16());
  HIGGINS_RETURN_IF_ERROR(reader.Finish("OffsetFetch response"));
  return response;
}

}  // namespace higgins::kafka
