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

// LeaveGroup (key 13; LeaveGroupRequest.json, LeaveGroupResponse.json), versions 0-3, none
// flexible. v0-2 name one member; v3 names a batch of members (static membership, KIP-345),
// each answered with its own error code. v1 adds the throttle time; v4 is flexible.

/// Strings are views into the frame body.
struct LeaveGroupMember {
  std::string_view member_id;
  std::optional<std::string_view> group_instance_id;

  friend bool operator==(const LeaveGroupMember&, const LeaveGroupMember&) = default;
};

/// Strings are views into the frame body. v0-2 carry `member_id` and no `members`; v3 carries
/// `members` and no `member_id`. The encoder writes only the field of its version.
struct LeaveGroupRequest {
  std::string_view group_id;
  std::string_view member_id;             // v0-2
  std::vector<LeaveGroupMember> members;  // v3+

  friend bool operator==(const LeaveGroupRequest&, const LeaveGroupRequest&) = default;
};

/// Decodes a LeaveGroup request body. Errors: NotSupported outside v0-3; Corruption for
/// malformed, truncated or overlong bytes.
Result<LeaveGroupRequest> DecodeLeaveGroupRequest(Reader& reader, int16_t version);
void EncodeLeaveGroupRequest(const LeaveGroupRequest& request, int16_t version, Writer& writer);

struct LeaveGroupMemberResponse {
  std::string member_id;
  std::optional<std::string> group_instance_id;
  ErrorCode error_code = ErrorCode::kNone;

  friend bool operator==(const LeaveGroupMemberResponse&,
                         const LeaveGroupMemberResponse&) = default;
};

struct LeaveGroupResponse {
  int32_t throttle_time_ms = 0;  // v1+
  ErrorCode error_code = ErrorCode::kNone;
  std::vector<LeaveGroupMemberResponse> members;  // v3+

  friend bool operator==(const LeaveGroupResponse&, const LeaveGroupResponse&) = default;
};

/// Writes a LeaveGroup response body, v0-3. Field order: throttle_time_ms (v1+), error_code,
/// members (v3+) [member_id, group_instance_id, error_code]. Fields newer than `version` are
/// not written.
void EncodeLeaveGroupResponse(const LeaveGroupResponse& response, int16_t version, Writer& writer);
/// The inverse, for tests and tools; fields absent from `version` keep their defaults.
Result<LeaveGroupResponse> DecodeLeaveGroupResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
