#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "higgins/result.h"
#include "kafka/errors.h"
#include "kafka/wire.h"

namespace higgins::kafka {

// FindCoordinator (key 10; FindCoordinatorRequest.json, FindCoordinatorResponse.json),
// versions 0-2, none flexible. v0 finds a group's coordinator; v1 adds the key type (group or
// transaction) and an error message; v3 is flexible and v4 batches keys (not spoken here).

/// The key types of FindCoordinator v1+ (FindCoordinatorRequest.CoordinatorType).
inline constexpr int8_t kCoordinatorKeyGroup = 0;
inline constexpr int8_t kCoordinatorKeyTransaction = 1;

/// Strings are views into the frame body.
struct FindCoordinatorRequest {
  std::string_view key;                    // a group id, or a transactional id
  int8_t key_type = kCoordinatorKeyGroup;  // v1+; v0 implies a group

  friend bool operator==(const FindCoordinatorRequest&, const FindCoordinatorRequest&) = default;
};

/// Decodes a FindCoordinator request body. Errors: NotSupported outside v0-2; Corruption for
/// malformed, truncated or overlong bytes.
Result<FindCoordinatorRequest> DecodeFindCoordinatorRequest(Reader& reader, int16_t version);
void EncodeFindCoordinatorRequest(const FindCoordinatorRequest& request, int16_t version,
                                  Writer& writer);

struct FindCoordinatorResponse {
  int32_t throttle_time_ms = 0;  // v1+
  ErrorCode error_code = ErrorCode::kNone;
  std::optional<std::string> error_message;  // v1+; null when there is no error
  int32_t node_id = -1;
  std::string host;
  int32_t port = -1;

  friend bool operator==(const FindCoordinatorResponse&, const FindCoordinatorResponse&) = default;
};

/// Writes a FindCoordinator response body, v0-2. Field order: throttle_time_ms (v1+),
/// error_code, error_message (v1+), node_id, host, port. Fields newer than `version` are not
/// written.
void EncodeFindCoordinatorResponse(const FindCoordinatorResponse& response, int16_t version,
                                   Writer& writer);
/// The inverse, for tests and tools; fields absent from `version` keep their defaults.
Result<FindCoordinatorResponse> DecodeFindCoordinatorResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
