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

// JoinGroup (key 11; JoinGroupRequest.json, JoinGroupResponse.json), versions 0-5, none
// flexible. v1 adds the rebalance timeout, v2 the throttle time, v5 static membership
// (group_instance_id); v6 is flexible.

/// One assignment protocol a member supports ("range", "cooperative-sticky"), with its
/// subscription metadata (opaque to the broker). Views into the frame body.
struct JoinGroupProtocol {
  std::string_view name;
  std::string_view metadata;  // BYTES

  friend bool operator==(const JoinGroupProtocol&, const JoinGroupProtocol&) = default;
};

/// Strings and bytes are views into the frame body.
struct JoinGroupRequest {
  std::string_view group_id;
  int32_t session_timeout_ms = 0;
  int32_t rebalance_timeout_ms = -1;                  // v1+; -1 (v0) means session_timeout_ms
  std::string_view member_id;                         // empty on a member's first join
  std::optional<std::string_view> group_instance_id;  // v5+; null for a dynamic member
  std::string_view protocol_type;                     // "consumer" for consumer groups
  std::vector<JoinGroupProtocol> protocols;

  friend bool operator==(const JoinGroupRequest&, const JoinGroupRequest&) = default;
};

/// Decodes a JoinGroup request body. Errors: NotSupported outside v0-5; Corruption for
/// malformed, truncated or overlong bytes.
Result<JoinGroupRequest> DecodeJoinGroupRequest(Reader& reader, int16_t version);
void EncodeJoinGroupRequest(const JoinGroupRequest& request, int16_t version, Writer& writer);

/// A member of the group, sent to the leader only (others get an empty list).
struct JoinGroupMember {
  std::string member_id;
  std::optional<std::string> group_instance_id;  // v5+
  std::string metadata;                          // BYTES: the member's chosen protocol metadata

  friend bool operator==(const JoinGroupMember&, const JoinGroupMember&) = default;
};

struct JoinGroupResponse {
  int32_t throttle_time_ms = 0;  // v2+
  ErrorCode error_code = ErrorCode::kNone;
  int32_t generation_id = -1;
  std::string protocol_name;  // the protocol the coordinator chose
  std::string leader;         // the leader's member id
  std::string member_id;      // the member id assigned to the joining member
  std::vector<JoinGroupMember> members;

  friend bool operator==(const JoinGroupResponse&, const JoinGroupResponse&) = default;
};

/// Writes a JoinGroup response body, v0-5. Field order: throttle_time_ms (v2+), error_code,
/// generation_id, protocol_name, leader, member_id, members [member_id, group_instance_id
/// (v5+), metadata]. Fields newer than `version` are not written.
void EncodeJoinGroupResponse(const JoinGroupResponse& response, int16_t version, Writer& writer);
/// The inverse, for tests and tools; fields absent from `version` keep their defaults.
Result<JoinGroupResponse> DecodeJoinGroupResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
