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

// OffsetCommit (key 8; OffsetCommitRequest.json, OffsetCommitResponse.json), versions 2-7,
// none flexible. v2-4 carry a retention time (dropped in v5), v3 adds the throttle time, v6 the
// committed leader epoch, v7 static membership (group_instance_id); v8 is flexible.

/// Strings are views into the frame body.
struct OffsetCommitPartition {
  int32_t partition_index = 0;
  int64_t committed_offset = 0;                        // the next offset the group will consume
  int32_t committed_leader_epoch = -1;                 // v6+; -1 unknown
  std::optional<std::string_view> committed_metadata;  // client-chosen, may be null

  friend bool operator==(const OffsetCommitPartition&, const OffsetCommitPartition&) = default;
};

struct OffsetCommitTopic {
  std::string_view name;
  std::vector<OffsetCommitPartition> partitions;

  friend bool operator==(const OffsetCommitTopic&, const OffsetCommitTopic&) = default;
};

/// Strings are views into the frame body.
struct OffsetCommitRequest {
  std::string_view group_id;
  int32_t generation_id = -1;  // -1 for a commit outside group management (assign())
  std::string_view member_id;  // empty outside group management
  std::optional<std::string_view> group_instance_id;  // v7+
  int64_t retention_time_ms = -1;                     // v2-4; -1 means the broker's default
  std::vector<OffsetCommitTopic> topics;

  friend bool operator==(const OffsetCommitRequest&, const OffsetCommitRequest&) = default;
};

/// Decodes an OffsetCommit request body. Errors: NotSupported outside v2-7; Corruption for
/// malformed, truncated or overlong bytes.
Result<OffsetCommitRequest> DecodeOffsetCommitRequest(Reader& reader, int16_t version);
void EncodeOffsetCommitRequest(const OffsetCommitRequest& request, int16_t version, Writer& writer);

struct OffsetCommitPartitionResponse {
  int32_t partition_index = 0;
  ErrorCode error_code = ErrorCode::kNone;

  friend bool operator==(const OffsetCommitPartitionResponse&,
                         const OffsetCommitPartitionResponse&) = default;
};

struct OffsetCommitTopicResponse {
  std::string name;
  std::vector<OffsetCommitPartitionResponse> partitions;

  friend bool operator==(const OffsetCommitTopicResponse&,
                         const OffsetCommitTopicResponse&) = default;
};

struct OffsetCommitResponse {
  int32_t throttle_time_ms = 0;  // v3+
  std::vector<OffsetCommitTopicResponse> topics;

  friend bool operator==(const OffsetCommitResponse&, const OffsetCommitResponse&) = default;
};

/// Writes an OffsetCommit response body, v2-7. Field order: throttle_time_ms (v3+), topics
/// [name, partitions [partition_index, error_code]]. Fields newer than `version` are not
/// written.
void EncodeOffsetCommitResponse(const OffsetCommitResponse& response, int16_t version,
                                Writer& writer);
/// The inverse, for tests and tools; fields absent from `version` keep their defaults.
Result<OffsetCommitResponse> DecodeOffsetCommitResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
