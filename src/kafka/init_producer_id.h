#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "higgins/result.h"
#include "kafka/errors.h"
#include "kafka/wire.h"

namespace higgins::kafka {

// InitProducerId (key 22; InitProducerIdRequest.json, InitProducerIdResponse.json), versions
// 0-1, none flexible. v1 is v0 again (a throttled response is sent before the quota delay);
// v2 is flexible.

/// Strings are views into the frame body.
struct InitProducerIdRequest {
  std::optional<std::string_view> transactional_id;  // null for an idempotent producer
  int32_t transaction_timeout_ms = 0;

  friend bool operator==(const InitProducerIdRequest&, const InitProducerIdRequest&) = default;
};

/// Decodes an InitProducerId request body. Errors: NotSupported outside v0-1; Corruption for
/// malformed, truncated or overlong bytes.
Result<InitProducerIdRequest> DecodeInitProducerIdRequest(Reader& reader, int16_t version);
void EncodeInitProducerIdRequest(const InitProducerIdRequest& request, int16_t version,
                                 Writer& writer);

struct InitProducerIdResponse {
  int32_t throttle_time_ms = 0;
  ErrorCode error_code = ErrorCode::kNone;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;

  friend bool operator==(const InitProducerIdResponse&, const InitProducerIdResponse&) = default;
};

/// Writes an InitProducerId response body, v0-1: throttle_time_ms, error_code, producer_id,
/// producer_epoch.
void EncodeInitProducerIdResponse(const InitProducerIdResponse& response, int16_t version,
                                  Writer& writer);
/// The inverse, for tests and tools.
Result<InitProducerIdResponse> DecodeInitProducerIdResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
