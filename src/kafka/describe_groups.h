#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "higgins/result.h"
#include "kafka/errors.h"
#include "kafka/wire.h"

namespace higgins::kafka {

// DescribeGroups (key 15; DescribeGroupsRequest.json, DescribeGroupsResponse.json), versions
// 0-4, none flexible. v1 adds the throttle time, v3 include_authorized_operations and the
// groups' authorized operations, v4 each member's group_instance_id; v5 is flexible.

struct DescribeGroupsRequest {
  std::vector<std::string_view> groups;        // views into the frame body
  bool include_authorized_operations = false;  // v3+

  friend bool operator==(const DescribeGroupsRequest&, const DescribeGroupsRequest&) = default;
};

/// Decodes a DescribeGroups request body. Errors: NotSupported outside v0-4; Corruption for
/// malformed, truncated or overlong bytes.
Result<DescribeGroupsRequest> DecodeDescribeGroupsRequest(Reader& reader, int16_t version);
void EncodeDescribeGroupsRequest(const DescribeGroupsRequest& request, int16_t version,
                                 Writer& writer);

struct DescribedGroupMember {
  std::string member_id;
  std::optional<std::string> group_instance_id;  // v4+
  std::string client_id;
  std::string client_host;
  std::string member_metadata;    // BYTES: the chosen protocol's metadata
  std::string member_assignment;  // BYTES

  friend bool operator==(const DescribedGroupMember&, const DescribedGroupMember&) = default;
};

struct DescribedGroup {
  ErrorCode error_code = ErrorCode::kNone;
  std::string group_id;
  std::string group_state;    // "Empty", "PreparingRebalance", ..., "Dead"
  std::string protocol_type;  // "consumer", or empty
  std::string protocol_data;  // the chosen protocol (assignor) name
  std::vector<DescribedGroupMember> members;
  /// v3+: a bit field of ACL operations; INT32_MIN when not asked for.
  int32_t authorized_operations = INT32_MIN;

  friend bool operator==(const DescribedGroup&, const DescribedGroup&) = default;
};

struct DescribeGroupsResponse {
  int32_t throttle_time_ms = 0;  // v1+
  std::vector<DescribedGroup> groups;

  friend bool operator==(const DescribeGroupsResponse&, const DescribeGroupsResponse&) = default;
};

/// Writes a DescribeGroups response body, v0-4. Field order: throttle_time_ms (v1+), groups
/// [error_code, group_id, group_state, protocol_type, protocol_data, members [member_id,
/// group_instance_id (v4+), client_id, client_host, member_metadata, member_assignment],
/// authorized_operations (v3+)].
void EncodeDescribeGroupsResponse(const DescribeGroupsResponse& response, int16_t version,
                                  Writer& writer);
/// The inverse, for tests and tools; fields absent from `version` keep their defaults.
Result<DescribeGroupsResponse> DecodeDescribeGroupsResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
