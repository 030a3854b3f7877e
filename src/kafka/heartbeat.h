#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "higgins/result.h"
#include "kafka/errors.h"
#include "kafka/wire.h"

namespace higgins::kafka {

// Heartbeat (key 12; HeartbeatRequest.json, HeartbeatResponse.json), versions 0-3, none
// flexible. v1 adds the throttle time, v3 static membership (group_instance_id); v4 is
// flexible.

/// Strings are views into the frame body.
struct HeartbeatRequest {
  std::string_view group_id;
  int32_t generation_id = -1;
  std::string_view member_id;
  std::optional<std::string_view> group_instance_id;  // v3+; null for a dynamic member

  friend bool operator==(const HeartbeatRequest&, const HeartbeatRequest&) = default;
};

/// Decodes a Heartbeat request body. Errors: NotSupported outside v0-3; Corruption for
/// malformed, truncated or overlong bytes.
Result<HeartbeatRequest> DecodeHeartbeatRequest(Reader& reader, int16_t version);
void EncodeHeartbeatRequest(const HeartbeatRequest& request, int16_t version, Writer& writer);

struct HeartbeatResponse {
  int32_t throttle_time_ms = 0;  // v1+
  ErrorCode error_code = ErrorCode::kNone;

  friend bool operator==(const HeartbeatResponse&, const HeartbeatResponse&) = default;
};

/// Writes a Heartbeat response body, v0-3. Field order: throttle_time_ms (v1+), error_code.
void EncodeHeartbeatResponse(const HeartbeatResponse& response, int16_t version, Writer& writer);
/// The inverse, for tests and tools; fields absent from `version` keep their defaults.
Result<HeartbeatResponse> DecodeHeartbeatResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
