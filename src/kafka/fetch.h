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

// Fetch (key 1; FetchRequest.json, FetchResponse.json), versions 4-11, none flexible.
// v4: isolation level, record batches v2; v5: log start offsets; v7: fetch sessions (KIP-227);
// v9: current leader epoch; v11: rack id and preferred read replica (KIP-392).

/// Strings are views into the frame body.
struct FetchPartition {
  int32_t partition = 0;
  int32_t current_leader_epoch = -1;  // v9+
  int64_t fetch_offset = 0;
  int64_t log_start_offset = -1;  // v5+; followers only
  int32_t partition_max_bytes = 0;

  friend bool operator==(const FetchPartition&, const FetchPartition&) = default;
};

struct FetchTopic {
  std::string_view topic;
  std::vector<FetchPartition> partitions;

  friend bool operator==(const FetchTopic&, const FetchTopic&) = default;
};

struct ForgottenTopic {
  std::string_view topic;
  std::vector<int32_t> partitions;

  friend bool operator==(const ForgottenTopic&, const ForgottenTopic&) = default;
};

struct FetchRequest {
  int32_t replica_id = -1;  // -1 for consumers
  int32_t max_wait_ms = 0;
  int32_t min_bytes = 0;
  int32_t max_bytes = 0x7fffffff;
  int8_t isolation_level = 0;  // 0 read_uncommitted, 1 read_committed
  int32_t session_id = 0;      // v7+
  int32_t session_epoch = -1;  // v7+
  std::vector<FetchTopic> topics;
  std::vector<ForgottenTopic> forgotten_topics_data;  // v7+
  std::string_view rack_id;                           // v11+

  friend bool operator==(const FetchRequest&, const FetchRequest&) = default;
};

/// Decodes a Fetch request body: replica_id, max_wait_ms, min_bytes, max_bytes INT32,
/// isolation_level INT8, session_id, session_epoch INT32 (v7+), topics [topic STRING,
/// partitions [partition INT32, current_leader_epoch INT32 (v9+), fetch_offset INT64,
/// log_start_offset INT64 (v5+), partition_max_bytes INT32]], forgotten_topics_data [topic,
/// partitions []INT32] (v7+), rack_id STRING (v11+). Errors: NotSupported outside v4-11;
/// Corruption for malformed or truncated bytes.
Result<FetchRequest> DecodeFetchRequest(Reader& reader, int16_t version);
void EncodeFetchRequest(const FetchRequest& request, int16_t version, Writer& writer);

struct AbortedTransaction {
  int64_t producer_id = 0;
  int64_t first_offset = 0;

  friend bool operator==(const AbortedTransaction&, const AbortedTransaction&) = default;
};

struct FetchPartitionResponse {
  int32_t partition_index = 0;
  ErrorCode error_code = ErrorCode::kNone;
  int64_t high_watermark = 0;
  int64_t last_stable_offset = -1;  // set it: read_committed consumers stop at it
  int64_t log_start_offset = -1;    // v5+
  /// Null unless the consumer reads committed data (Kafka's own broker does the same).
  std::optional<std::vector<AbortedTransaction>> aborted_transactions;
  int32_t preferred_read_replica = -1;  // v11+; -1 means "keep fetching from the leader"
  /// Concatenated record batches, written as given. A partition with nothing to return gets
  /// zero bytes, never a null (clients treat null as an error). The view must stay valid until
  /// the response is encoded (a segment mapping or a read buffer).
  std::string_view records;

  friend bool operator==(const FetchPartitionResponse&, const FetchPartitionResponse&) = default;
};

struct FetchTopicResponse {
  std::string topic;
  std::vector<FetchPartitionResponse> partitions;

  friend bool operator==(const FetchTopicResponse&, const FetchTopicResponse&) = default;
};

struct FetchResponse {
  int32_t throttle_time_ms = 0;
  ErrorCode error_code = ErrorCode::kNone;  // v7+; session-level errors
  int32_t session_id = 0;                   // v7+; 0 when no session
  std::vector<FetchTopicResponse> responses;

  friend bool operator==(const FetchResponse&, const FetchResponse&) = default;
};

/// Writes a Fetch response body, v4-11: throttle_time_ms, error_code and session_id (v7+),
/// responses [topic, partitions [partition_index, error_code, high_watermark,
/// last_stable_offset, log_start_offset (v5+), aborted_transactions (nullable),
/// preferred_read_replica (v11+), records BYTES]].
void EncodeFetchResponse(const FetchResponse& response, int16_t version, Writer& writer);
/// The inverse, for tests and tools; records are views into the reader's input, and null
/// records decode as empty.
Result<FetchResponse> DecodeFetchResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
