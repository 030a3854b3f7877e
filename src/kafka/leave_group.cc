#include "kafka/leave_group.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {
namespace {

// Smallest encodings of one array element, which bound the counts a reader accepts.
constexpr size_t kMinMemberBytes = 2 + 2;
constexpr size_t kMinMemberResponseBytes = 2 + 2 + 2;

}  // namespace

Result<LeaveGroupRequest> DecodeLeaveGroupRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kLeaveGroup, version));
  LeaveGroupRequest request;
  request.group_id = reader.String();
  if (version <= 2) {
    request.member_id = reader.String();
  } else {
    const int32_t members = reader.ArrayLength(kMinMemberBytes);
    request.members.reserve(members);
    for (int32_t i = 0; i < members && reader.ok(); ++i) {
      LeaveGroupMember m;
      m.member_id = reader.String();
      m.group_instance_id = reader.NullableString();
      request.members.push_back(m);
    }
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("LeaveGroup request"));
  return request;
}

void EncodeLeaveGroupRequest(const LeaveGroupRequest& request, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kLeaveGroup, version);
  writer.String(request.group_id);
  if (version <= 2) {
    writer.String(request.member_id);
    return;
  }
  writer.ArrayLength(request.members.size());
  for (const LeaveGroupMember& m : request.members) {
    writer.String(m.member_id);
    writer.NullableString(m.group_instance_id);
  }
}

void EncodeLeaveGroupResponse(const LeaveGroupResponse& response, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kLeaveGroup, version);
  if (version >= 1) writer.Int32(response.throttle_time_ms);
  writer.Int16(static_cast<int16_t>(response.error_code));
  if (version < 3) return;
  writer.ArrayLength(response.members.size());
  for (const LeaveGroupMemberResponse& m : response.members) {
    writer.String(m.member_id);
    writer.NullableString(m.group_instance_id);
    writer.Int16(static_cast<int16_t>(m.error_code));
  }
}

Result<LeaveGroupResponse> DecodeLeaveGroupResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kLeaveGroup, version));
  LeaveGroupResponse response;
  if (version >= 1) response.throttle_time_ms = reader.Int32();
  response.error_code = static_cast<ErrorCode>(reader.Int16());
  if (version >= 3) {
    const int32_t members = reader.ArrayLength(kMinMemberResponseBytes);
    for (int32_t i = 0; i < members && reader.ok(); ++i) {
      LeaveGroupMemberResponse m;
      m.member_id = reader.String();
      m.group_instance_id = internal::OwnedOrNull(reader.NullableString());
      m.error_code = static_cast<ErrorCode>(reader.Int16());
      response.members.push_back(std::move(m));
    }
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("LeaveGroup response"));
  return response;
}

}  // namespace higgins::kafka
