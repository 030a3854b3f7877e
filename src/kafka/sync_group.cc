#include "kafka/sync_group.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {
namespace {

// Smallest encoding of one assignment, which bounds the count a reader accepts.
constexpr size_t kMinAssignmentBytes = 2 + 4;

}  // namespace

Result<SyncGroupRequest> DecodeSyncGroupRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kSyncGroup, version));
  SyncGroupRequest request;
  request.group_id = reader.String();
  request.generation_id = reader.Int32();
  request.member_id = reader.String();
  if (version >= 3) request.group_instance_id = reader.NullableString();
  const int32_t assignments = reader.ArrayLength(kMinAssignmentBytes);
  request.assignments.reserve(assignments);
  for (int32_t i = 0; i < assignments && reader.ok(); ++i) {
    SyncGroupAssignment a;
    a.member_id = reader.String();
    a.assignment = reader.Bytes();
    request.assignments.push_back(a);
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("SyncGroup request"));
  return request;
}

void EncodeSyncGroupRequest(const SyncGroupRequest& request, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kSyncGroup, version);
  writer.String(request.group_id);
  writer.Int32(request.generation_id);
  writer.String(request.member_id);
  if (version >= 3) writer.NullableString(request.group_instance_id);
  writer.ArrayLength(request.assignments.size());
  for (const SyncGroupAssignment& a : request.assignments) {
    writer.String(a.member_id);
    writer.Bytes(a.assignment);
  }
}

void EncodeSyncGroupResponse(const SyncGroupResponse& response, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kSyncGroup, version);
  if (version >= 1) writer.Int32(response.throttle_time_ms);
  writer.Int16(static_cast<int16_t>(response.error_code));
  writer.Bytes(response.assignment);
}

Result<SyncGroupResponse> DecodeSyncGroupResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kSyncGroup, version));
  SyncGroupResponse response;
  if (version >= 1) response.throttle_time_ms = reader.Int32();
  response.error_code = static_cast<ErrorCode>(reader.Int16());
  response.assignment = reader.Bytes();
  HIGGINS_RETURN_IF_ERROR(reader.Finish("SyncGroup response"));
  return response;
}

}  // namespace higgins::kafka
