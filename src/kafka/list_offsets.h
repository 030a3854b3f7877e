#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "higgins/result.h"
#include "kafka/errors.h"
#include "kafka/wire.h"

namespace higgins::kafka {

// ListOffsets (key 2; ListOffsetsRequest.json, ListOffsetsResponse.json), versions 1-2, none
// flexible. v1 returns one offset per partition; v2 adds the isolation level and throttle.

/// The special timestamps of a ListOffsets request (ListOffsetsRequest.java).
inline constexpr int64_t kLatestTimestamp = -1;    // the next offset to be written
inline constexpr int64_t kEarliestTimestamp = -2;  // the log start offset

struct ListOffsetsPartition {
  int32_t partition_index = 0;
  int64_t timestamp = kLatestTimestamp;  // ms since the epoch, or a special value above

  friend bool operator==(const ListOffsetsPartition&, const ListOffsetsPartition&) = default;
};

/// Strings are views into the frame body.
struct ListOffsetsTopic {
  std::string_view name;
  std::vector<ListOffsetsPartition> partitions;

  friend bool operator==(const ListOffsetsTopic&, const ListOffsetsTopic&) = default;
};

struct ListOffsetsRequest {
  int32_t replica_id = -1;     // -1 for consumers
  int8_t isolation_level = 0;  // v2+; 0 read_uncommitted, 1 read_committed
  std::vector<ListOffsetsTopic> topics;

  friend bool operator==(const ListOffsetsRequest&, const ListOffsetsRequest&) = default;
};

/// Decodes a ListOffsets request body: replica_id INT32, isolation_level INT8 (v2+), topics
/// [name STRING, partitions [partition_index INT32, timestamp INT64]]. Errors: NotSupported
/// outside v1-2; Corruption for malformed or truncated bytes.
Result<ListOffsetsRequest> DecodeListOffsetsRequest(Reader& reader, int16_t version);
void EncodeListOffsetsRequest(const ListOffsetsRequest& request, int16_t version, Writer& writer);

struct ListOffsetsPartitionResponse {
  int32_t partition_index = 0;
  ErrorCode error_code = ErrorCode::kNone;
  int64_t timestamp = -1;  // of the record found; -1 for latest/earliest or none found
  int64_t offset = -1;     // -1 when no record has a timestamp >= the one asked for

  friend bool operator==(const ListOffsetsPartitionResponse&,
                         const ListOffsetsPartitionResponse&) = default;
};

struct ListOffsetsTopicResponse {
  std::string name;
  std::vector<ListOffsetsPartitionResponse> partitions;

  friend bool operator==(const ListOffsetsTopicResponse&,
                         const ListOffsetsTopicResponse&) = default;
};

struct ListOffsetsResponse {
  int32_t throttle_time_ms = 0;  // v2+
  std::vector<ListOffsetsTopicResponse> topics;

  friend bool operator==(const ListOffsetsResponse&, const ListOffsetsResponse&) = default;
};

/// Writes a ListOffsets response body, v1-2: throttle_time_ms (v2+), topics [name, partitions
/// [partition_index INT32, error_code INT16, timestamp INT64, offset INT64]].
void EncodeListOffsetsResponse(const ListOffsetsResponse& response, int16_t version,
                               Writer& writer);
/// The inverse, for tests and tools.
Result<ListOffsetsResponse> DecodeListOffsetsResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
