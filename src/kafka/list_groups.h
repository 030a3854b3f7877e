#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "higgins/result.h"
#include "kafka/errors.h"
#include "kafka/wire.h"

namespace higgins::kafka {

// ListGroups (key 16; ListGroupsRequest.json, ListGroupsResponse.json), versions 0-2, none
// flexible: an empty request; v1 adds the throttle time (v2 changes only the throttling
// behaviour). v3 is flexible, v4 filters by state.

struct ListGroupsRequest {
  friend bool operator==(const ListGroupsRequest&, const ListGroupsRequest&) = default;
};

/// Decodes a ListGroups request body (empty). Errors: NotSupported outside v0-2; Corruption
/// for bytes left over.
Result<ListGroupsRequest> DecodeListGroupsRequest(Reader& reader, int16_t version);
void EncodeListGroupsRequest(const ListGroupsRequest& request, int16_t version, Writer& writer);

struct ListedGroup {
  std::string group_id;
  std::string protocol_type;

  friend bool operator==(const ListedGroup&, const ListedGroup&) = default;
};

struct ListGroupsResponse {
  int32_t throttle_time_ms = 0;  // v1+
  ErrorCode error_code = ErrorCode::kNone;
  std::vector<ListedGroup> groups;

  friend bool operator==(const ListGroupsResponse&, const ListGroupsResponse&) = default;
};

/// Writes a ListGroups response body, v0-2. Field order: throttle_time_ms (v1+), error_code,
/// groups [group_id, protocol_type].
void EncodeListGroupsResponse(const ListGroupsResponse& response, int16_t version, Writer& writer);
/// The inverse, for tests and tools; fields absent from `version` keep their defaults.
Result<ListGroupsResponse> DecodeListGroupsResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
