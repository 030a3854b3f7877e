#include "kafka/describe_groups.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {
namespace {

// Smallest encodings of one array element, which bound the counts a reader accepts.
constexpr size_t kMinGroupBytes = 2 + 2 + 2 + 2 + 2 + 4;
constexpr size_t kMinMemberBytes = 2 + 2 + 2 + 4 + 4;

}  // namespace

Result<DescribeGroupsRequest> DecodeDescribeGroupsRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kDescribeGroups, version));
  DescribeGroupsRequest request;
  const int32_t n = reader.ArrayLength(2);
  for (int32_t i = 0; i < n && reader.ok(); ++i) request.groups.push_back(reader.String());
  if (version >= 3) request.include_authorized_operations = reader.Boolean();
  HIGGINS_RETURN_IF_ERROR(reader.Finish("DescribeGroups request"));
  return request;
}

void EncodeDescribeGroupsRequest(const DescribeGroupsRequest& request, int16_t version,
                                 Writer& writer) {
  internal::AssertVersion(ApiKey::kDescribeGroups, version);
  writer.ArrayLength(request.groups.size());
  for (std::string_view group : request.groups) writer.String(group);
  if (version >= 3) writer.Boolean(request.include_authorized_operations);
}

void EncodeDescribeGroupsResponse(const DescribeGroupsResponse& response, int16_t version,
                                  Writer& writer) {
  internal::AssertVersion(ApiKey::kDescribeGroups, version);
  if (version >= 1) writer.Int32(response.throttle_time_ms);
  writer.ArrayLength(response.groups.size());
  for (const DescribedGroup& g : response.groups) {
    writer.Int16(static_cast<int16_t>(g.error_code));
    writer.String(g.group_id);
    writer.String(g.group_state);
    writer.String(g.protocol_type);
    writer.String(g.protocol_data);
    writer.ArrayLength(g.members.size());
    for (const DescribedGroupMember& m : g.members) {
      writer.String(m.member_id);
      if (version >= 4) writer.NullableString(m.group_instance_id);
      writer.String(m.client_id);
      writer.String(m.client_host);
      writer.Bytes(m.member_metadata);
      writer.Bytes(m.member_assignment);
    }
    if (version >= 3) writer.Int32(g.authorized_operations);
  }
}

Result<DescribeGroupsResponse> DecodeDescribeGroupsResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kDescribeGroups, version));
  DescribeGroupsResponse response;
  if (version >= 1) response.throttle_time_ms = reader.Int32();
  const int32_t groups = reader.ArrayLength(kMinGroupBytes);
  for (int32_t i = 0; i < groups && reader.ok(); ++i) {
    DescribedGroup g;
    g.error_code = static_cast<ErrorCode>(reader.Int16());
    g.group_id = reader.String();
    g.group_state = reader.String();
    g.protocol_type = reader.String();
    g.protocol_data = reader.String();
    const int32_t members = reader.ArrayLength(kMinMemberBytes);
    for (int32_t j = 0; j < members && reader.ok(); ++j) {
      DescribedGroupMember m;
      m.member_id = reader.String();
      if (version >= 4) m.group_instance_id = internal::OwnedOrNull(reader.NullableString());
      m.client_id = reader.String();
      m.client_host = reader.String();
      m.member_metadata = reader.Bytes();
      m.member_assignment = reader.Bytes();
      g.members.push_back(std::move(m));
    }
    if (version >= 3) g.authorized_operations = reader.Int32();
    response.groups.push_back(std::move(g));
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("DescribeGroups response"));
  return response;
}

}  // namespace higgins::kafka
