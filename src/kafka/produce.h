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

// Produce (key 0; ProduceRequest.json, ProduceResponse.json), versions 0-7, none flexible.
// v3 brings record batches v2 and the transactional id; v8 (not supported) would add
// record_errors and error_message to the response, v9 the flexible encoding.

/// Strings and records are views into the frame body.
struct ProducePartitionData {
  int32_t index = 0;
  /// The record batches exactly as sent (NULLABLE_BYTES), not parsed here: record_batch.h does.
  std::optional<std::string_view> records;

  friend bool operator==(const ProducePartitionData&, const ProducePartitionData&) = default;
};

struct ProduceTopicData {
  std::string_view name;
  std::vector<ProducePartitionData> partitions;

  friend bool operator==(const ProduceTopicData&, const ProduceTopicData&) = default;
};

struct ProduceRequest {
  std::optional<std::string_view> transactional_id;  // v3+; null if not transactional
  int16_t acks = -1;                                 // 0, 1 or -1 (all in-sync replicas)
  int32_t timeout_ms = 0;
  std::vector<ProduceTopicData> topics;

  friend bool operator==(const ProduceRequest&, const ProduceRequest&) = default;
};

/// Decodes a Produce request body: transactional_id (v3+), acks INT16, timeout_ms INT32,
/// topics [name STRING, partitions [index INT32, records NULLABLE_BYTES]]. Errors:
/// NotSupported outside v0-7; Corruption for malformed or truncated bytes.
Result<ProduceRequest> DecodeProduceRequest(Reader& reader, int16_t version);
void EncodeProduceRequest(const ProduceRequest& request, int16_t version, Writer& writer);

struct ProducePartitionResponse {
  int32_t index = 0;
  ErrorCode error_code = ErrorCode::kNone;
  int64_t base_offset = -1;
  int64_t log_append_time_ms = -1;  // v2+; -1 when the topic uses CreateTime
  int64_t log_start_offset = -1;    // v5+

  friend bool operator==(const ProducePartitionResponse&,
                         const ProducePartitionResponse&) = default;
};

struct ProduceTopicResponse {
  std::string name;
  std::vector<ProducePartitionResponse> partitions;

  friend bool operator==(const ProduceTopicResponse&, const ProduceTopicResponse&) = default;
};

struct ProduceResponse {
  std::vector<ProduceTopicResponse> topics;
  int32_t throttle_time_ms = 0;  // v1+; written after the topics

  friend bool operator==(const ProduceResponse&, const ProduceResponse&) = default;
};

/// Writes a Produce response body, v0-7: topics [name, partitions [index, error_code,
/// base_offset, log_append_time_ms (v2+), log_start_offset (v5+)]], throttle_time_ms (v1+).
/// A request with acks = 0 gets no response at all; that is the server's decision.
void EncodeProduceResponse(const ProduceResponse& response, int16_t version, Writer& writer);
/// The inverse, for tests and tools.
Result<ProduceResponse> DecodeProduceResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
