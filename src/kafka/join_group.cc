#include "kafka/join_group.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {
namespace {

// Smallest encodings of one array element, which bound the counts a reader accepts.
constexpr size_t kMinProtocolBytes = 2 + 4;
constexpr size_t kMinMemberBytes = 2 + 4;  // v5 adds at least 2

}  // namespace

Result<JoinGroupRequest> DecodeJoinGroupRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kJoinGroup, version));
  JoinGroupRequest request;
  request.group_id = reader.String();
  request.session_timeout_ms = reader.Int32();
  if (version >= 1) request.rebalance_timeout_ms = reader.Int32();
  request.member_id = reader.String();
  if (version >= 5) request.group_instance_id = reader.NullableString();
  request.protocol_type = reader.String();
  const int32_t protocols = reader.ArrayLength(kMinProtocolBytes);
  request.protocols.reserve(protocols);
  for (int32_t i = 0; i < protocols && reader.ok(); ++i) {
    JoinGroupProtocol p;
    p.name = reader.String();
    p.metadata = reader.Bytes();
    request.protocols.push_back(p);
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("JoinGroup request"));
  return request;
}

void EncodeJoinGroupRequest(const JoinGroupRequest& request, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kJoinGroup, version);
  writer.String(request.group_id);
  writer.Int32(request.session_timeout_ms);
  if (version >= 1) writer.Int32(request.rebalance_timeout_ms);
  writer.String(request.member_id);
  if (version >= 5) writer.NullableString(request.group_instance_id);
  writer.String(request.protocol_type);
  writer.ArrayLength(request.protocols.size());
  for (const JoinGroupProtocol& p : request.protocols) {
    writer.String(p.name);
    writer.Bytes(p.metadata);
  }
}

void EncodeJoinGroupResponse(const JoinGroupResponse& response, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kJoinGroup, version);
  if (version >= 2) writer.Int32(response.throttle_time_ms);
  writer.Int16(static_cast<int16_t>(response.error_code));
  writer.Int32(response.generation_id);
  writer.String(response.protocol_name);
  writer.String(response.leader);
  writer.String(response.member_id);
  writer.ArrayLength(response.members.size());
  for (const JoinGroupMember& m : response.members) {
    writer.String(m.member_id);
    if (version >= 5) writer.NullableString(m.group_instance_id);
    writer.Bytes(m.metadata);
  }
}

Result<JoinGroupResponse> DecodeJoinGroupResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kJoinGroup, version));
  JoinGroupResponse response;
  if (version >= 2) response.throttle_time_ms = reader.Int32();
  response.error_code = static_cast<ErrorCode>(reader.Int16());
  response.generation_id = reader.Int32();
  response.protocol_name = reader.String();
  response.leader = reader.String();
  response.member_id = reader.String();
  const int32_t members = reader.ArrayLength(kMinMemberBytes);
  for (int32_t i = 0; i < members && reader.ok(); ++i) {
    JoinGroupMember m;
    m.member_id = reader.String();
    if (version >= 5) m.group_instance_id = internal::OwnedOrNull(reader.NullableString());
    m.metadata = reader.Bytes();
    response.members.push_back(std::move(m));
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("JoinGroup response"));
  return response;
}

}  // namespace higgins::kafka
