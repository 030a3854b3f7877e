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

// OffsetFetch (key 9; OffsetFetchRequest.json, OffsetFetchResponse.json), versions 1-7. v2
// allows a null topic array (every committed offset of the group) and adds a top-level error
// code, v3 the throttle time, v5 the committed leader epoch; v6 is flexible (compact strings and
// arrays, a tagged-field section closing every struct: KIP-482), v7 adds require_stable.

/// Strings are views into the frame body.
struct OffsetFetchTopic {
  std::string_view name;
  std::vector<int32_t> partition_indexes;

  friend bool operator==(const OffsetFetchTopic&, const OffsetFetchTopic&) = default;
};

struct OffsetFetchRequest {
  std::string_view group_id;  // a view into the frame body
  /// nullopt (a null array, v2+) asks for every partition the group committed. v1 cannot carry
  /// null: a null array there is Corruption, and encoding one at v1 is a programmer error.
  std::optional<std::vector<OffsetFetchTopic>> topics{std::in_place};
  /// v7+ (KIP-447): wait for pending transactional offsets. There are no transactions, so
  /// nothing is ever pending.
  bool require_stable = false;

  friend bool operator==(const OffsetFetchRequest&, const OffsetFetchRequest&) = default;
};

/// Decodes an OffsetFetch request body. Errors: NotSupported outside v1-7; Corruption for
/// malformed, truncated or overlong bytes (unknown tagged fields are skipped).
Result<OffsetFetchRequest> DecodeOffsetFetchRequest(Reader& reader, int16_t version);
void EncodeOffsetFetchRequest(const OffsetFetchRequest& request, int16_t version, Writer& writer);

struct OffsetFetchPartitionResponse {
  int32_t partition_index = 0;
  int64_t committed_offset = -1;        // -1: nothing committed
  int32_t committed_leader_epoch = -1;  // v5+
  std::optional<std::string> metadata;
  ErrorCode error_code = ErrorCode::kNone;

  friend bool operator==(const OffsetFetchPartitionResponse&,
                         const OffsetFetchPartitionResponse&) = default;
};

struct OffsetFetchTopicResponse {
  std::string name;
  std::vector<OffsetFetchPartitionResponse> partitions;

  friend bool operator==(const OffsetFetchTopicResponse&,
                         const OffsetFetchTopicResponse&) = default;
};

struct OffsetFetchResponse {
  int32_t throttle_time_ms = 0;  // v3+
  std::vector<OffsetFetchTopicResponse> topics;
  ErrorCode error_code = ErrorCode::kNone;  // v2+: a group-level error

  friend bool operator==(const OffsetFetchResponse&, const OffsetFetchResponse&) = default;
};

/// Writes an OffsetFetch response body, v1-7. Field order: throttle_time_ms (v3+), topics
/// [name, partitions [partition_index, committed_offset, committed_leader_epoch (v5+),
/// metadata, error_code]], error_code (v2+); v6+ compact, with empty tagged-field sections.
/// Fields newer than `version` are not written.
void EncodeOffsetFetchResponse(const OffsetFetchResponse& response, int16_t version,
                               Writer& writer);
/// The inverse, for tests and tools; fields absent from `version` keep their defaults.
Result<OffsetFetchResponse> DecodeOffsetFetchResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
