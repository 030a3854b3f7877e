#include "kafka/create_topics.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {
namespace {

// Smallest encodings of one array element, which bound the counts a reader accepts.
constexpr size_t kMinTopicBytes = 2 + 4 + 2 + 4 + 4;
constexpr size_t kMinAssignmentBytes = 4 + 4;
constexpr size_t kMinConfigBytes = 2 + 2;
constexpr size_t kMinTopicResultBytes = 2 + 2;  // v1 adds at least 2

CreateTopicsTopic DecodeTopic(Reader& reader) {
  CreateTopicsTopic t;
  t.name = reader.String();
  t.num_partitions = reader.Int32();
  t.replication_factor = reader.Int16();
  const int32_t assignments = reader.ArrayLength(kMinAssignmentBytes);
  t.assignments.reserve(assignments);
  for (int32_t i = 0; i < assignments && reader.ok(); ++i) {
    CreateTopicsAssignment a;
    a.partition_index = reader.Int32();
    a.broker_ids = internal::ReadInt32Array(reader);
    t.assignments.push_back(std::move(a));
  }
  const int32_t configs = reader.ArrayLength(kMinConfigBytes);
  t.configs.reserve(configs);
  for (int32_t i = 0; i < configs && reader.ok(); ++i) {
    CreateTopicsConfig c;
    c.name = reader.String();
    c.value = reader.NullableString();
    t.configs.push_back(c);
  }
  return t;
}

}  // namespace

Result<CreateTopicsRequest> DecodeCreateTopicsRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kCreateTopics, version));
  CreateTopicsRequest request;
  const int32_t topics = reader.ArrayLength(kMinTopicBytes);
  request.topics.reserve(topics);
  for (int32_t i = 0; i < topics && reader.ok(); ++i) request.topics.push_back(DecodeTopic(reader));
  request.timeout_ms = reader.Int32();
  if (version >= 1) request.validate_only = reader.Boolean();
  HIGGINS_RETURN_IF_ERROR(reader.Finish("CreateTopics request"));
  return request;
}

void EncodeCreateTopicsRequest(const CreateTopicsRequest& request, int16_t version,
                               Writer& writer) {
  internal::AssertVersion(ApiKey::kCreateTopics, version);
  writer.ArrayLength(request.topics.size());
  for (const CreateTopicsTopic& t : request.topics) {
    writer.String(t.name);
    writer.Int32(t.num_partitions);
    writer.Int16(t.replication_factor);
    writer.ArrayLength(t.assignments.size());
    for (const CreateTopicsAssignment& a : t.assignments) {
      writer.Int32(a.partition_index);
      internal::WriteInt32Array(a.broker_ids, writer);
    }
    writer.ArrayLength(t.configs.size());
    for (const CreateTopicsConfig& c : t.configs) {
      writer.String(c.name);
      writer.NullableString(c.value);
    }
  }
  writer.Int32(request.timeout_ms);
  if (version >= 1) writer.Boolean(request.validate_only);
}

void EncodeCreateTopicsResponse(const CreateTopicsResponse& response, int16_t version,
                                Writer& writer) {
  internal::AssertVersion(ApiKey::kCreateTopics, version);
  if (version >= 2) writer.Int32(response.throttle_time_ms);
  writer.ArrayLength(response.topics.size());
  for (const CreateTopicsTopicResult& t : response.topics) {
    writer.String(t.name);
    writer.Int16(static_cast<int16_t>(t.error_code));
    if (version >= 1) writer.NullableString(t.error_message);
  }
}

Result<CreateTopicsResponse> DecodeCreateTopicsResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kCreateTopics, version));
  CreateTopicsResponse response;
  if (version >= 2) response.throttle_time_ms = reader.Int32();
  const int32_t topics = reader.ArrayLength(kMinTopicResultBytes);
  for (int32_t i = 0; i < topics && reader.ok(); ++i) {
    CreateTopicsTopicResult t;
    t.name = reader.String();
    t.error_code = static_cast<ErrorCode>(reader.Int16());
    if (version >= 1) t.error_message = internal::OwnedOrNull(reader.NullableString());
    response.topics.push_back(std::move(t));
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("CreateTopics response"));
  return response;
}

}  // namespace higgins::kafka
