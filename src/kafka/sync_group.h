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

// SyncGroup (key 14; SyncGroupRequest.json, SyncGroupResponse.json), versions 0-3, none
// flexible. v1 adds the throttle time, v3 static membership (group_instance_id); v4 is
// flexible.

/// The leader's assignment for one member (opaque to the broker). Views into the frame body.
struct SyncGroupAssignment {
  std::string_view member_id;
  std::string_view assignment;  // BYTES

  friend bool operator==(const SyncGroupAssignment&, const SyncGroupAssignment&) = default;
};

/// Strings and bytes are views into the frame body.
struct SyncGroupRequest {
  std::string_view group_id;
  int32_t generation_id = -1;
  std::string_view member_id;
  std::optional<std::string_view> group_instance_id;  // v3+; null for a dynamic member
  std::vector<SyncGroupAssignment> assignments;       // from the leader only; empty otherwise

  friend bool operator==(const SyncGroupRequest&, const SyncGroupRequest&) = default;
};

/// Decodes a SyncGroup request body. Errors: NotSupported outside v0-3; Corruption for
/// malformed, truncated or overlong bytes.
Result<SyncGroupRequest> DecodeSyncGroupRequest(Reader& reader, int16_t version);
void EncodeSyncGroupRequest(const SyncGroupRequest& request, int16_t version, Writer& writer);

struct SyncGroupResponse {
  int32_t throttle_time_ms = 0;  // v1+
  ErrorCode error_code = ErrorCode::kNone;
  std::string assignment;  // BYTES: the requesting member's assignment

  friend bool operator==(const SyncGroupResponse&, const SyncGroupResponse&) = default;
};

/// Writes a SyncGroup response body, v0-3. Field order: throttle_time_ms (v1+), error_code,
/// assignment. Fields newer than `version` are not written.
void EncodeSyncGroupResponse(const SyncGroupResponse& response, int16_t version, Writer& writer);
/// The inverse, for tests and tools; fields absent from `version` keep their defaults.
Result<SyncGroupResponse> DecodeSyncGroupResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
