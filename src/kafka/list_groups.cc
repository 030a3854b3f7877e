#include "kafka/list_groups.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {

Result<ListGroupsRequest> DecodeListGroupsRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kListGroups, version));
  HIGGINS_RETURN_IF_ERROR(reader.Finish("ListGroups request"));
  return ListGroupsRequest{};
}

void EncodeListGroupsRequest(const ListGroupsRequest&, int16_t version, Writer&) {
  internal::AssertVersion(ApiKey::kListGroups, version);
}

void EncodeListGroupsResponse(const ListGroupsResponse& response, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kListGroups, version);
  if (version >= 1) writer.Int32(response.throttle_time_ms);
  writer.Int16(static_cast<int16_t>(response.error_code));
  writer.ArrayLength(response.groups.size());
  for (const ListedGroup& g : response.groups) {
    writer.String(g.group_id);
    writer.String(g.protocol_type);
  }
}

Result<ListGroupsResponse> DecodeListGroupsResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kListGroups, version));
  ListGroupsResponse response;
  if (version >= 1) response.throttle_time_ms = reader.Int32();
  response.error_code = static_cast<ErrorCode>(reader.Int16());
  const int32_t n = reader.ArrayLength(2 + 2);
  for (int32_t i = 0; i < n && reader.ok(); ++i) {
    ListedGroup g;
    g.group_id = reader.String();
    g.protocol_type = reader.String();
    response.groups.push_back(std::move(g));
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("ListGroups response"));
  return response;
}

}  // namespace higgins::kafka
