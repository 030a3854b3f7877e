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

// CreateTopics (key 19; CreateTopicsRequest.json, CreateTopicsResponse.json), versions 0-4,
// none flexible. v1 adds validate_only and a per-topic error message, v2 the throttle time; v3
// and v4 change only the broker's behaviour; v5 is flexible.

/// Manual replica assignment of one partition.
struct CreateTopicsAssignment {
  int32_t partition_index = 0;
  std::vector<int32_t> broker_ids;

  friend bool operator==(const CreateTopicsAssignment&, const CreateTopicsAssignment&) = default;
};

/// Strings are views into the frame body.
struct CreateTopicsConfig {
  std::string_view name;
  std::optional<std::string_view> value;

  friend bool operator==(const CreateTopicsConfig&, const CreateTopicsConfig&) = default;
};

/// Strings are views into the frame body.
struct CreateTopicsTopic {
  std::string_view name;
  int32_t num_partitions = -1;      // -1: the broker's default (or given by assignments)
  int16_t replication_factor = -1;  // -1: the broker's default (or given by assignments)
  std::vector<CreateTopicsAssignment> assignments;
  std::vector<CreateTopicsConfig> configs;

  friend bool operator==(const CreateTopicsTopic&, const CreateTopicsTopic&) = default;
};

struct CreateTopicsRequest {
  std::vector<CreateTopicsTopic> topics;
  int32_t timeout_ms = 60000;
  bool validate_only = false;  // v1+

  friend bool operator==(const CreateTopicsRequest&, const CreateTopicsRequest&) = default;
};

/// Decodes a CreateTopics request body. Errors: NotSupported outside v0-4; Corruption for
/// malformed, truncated or overlong bytes.
Result<CreateTopicsRequest> DecodeCreateTopicsRequest(Reader& reader, int16_t version);
void EncodeCreateTopicsRequest(const CreateTopicsRequest& request, int16_t version, Writer& writer);

struct CreateTopicsTopicResult {
  std::string name;
  ErrorCode error_code = ErrorCode::kNone;
  std::optional<std::string> error_message;  // v1+

  friend bool operator==(const CreateTopicsTopicResult&, const CreateTopicsTopicResult&) = default;
};

struct CreateTopicsResponse {
  int32_t throttle_time_ms = 0;  // v2+
  std::vector<CreateTopicsTopicResult> topics;

  friend bool operator==(const CreateTopicsResponse&, const CreateTopicsResponse&) = default;
};

/// Writes a CreateTopics response body, v0-4. Field order: throttle_time_ms (v2+), topics
/// [name, error_code, error_message (v1+)]. Fields newer than `version` are not written.
void EncodeCreateTopicsResponse(const CreateTopicsResponse& response, int16_t version,
                                Writer& writer);
/// The inverse, for tests and tools; fields absent from `version` keep their defaults.
Result<CreateTopicsResponse> DecodeCreateTopicsResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
