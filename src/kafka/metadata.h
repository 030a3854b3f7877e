#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "higgins/result.h"
#include "kafka/errors.h"
#include "kafka/wire.h"

namespace higgins::kafka {

// Metadata (key 3; MetadataRequest.json, MetadataResponse.json), versions 1-8, none flexible.

/// Strings are views into the frame body.
struct MetadataRequest {
  /// nullopt (a null array) asks for all topics; an empty list asks for none (v1+).
  std::optional<std::vector<std::string_view>> topics;
  bool allow_auto_topic_creation = true;               // v4+; earlier versions imply true
  bool include_cluster_authorized_operations = false;  // v8+
  bool include_topic_authorized_operations = false;    // v8+

  friend bool operator==(const MetadataRequest&, const MetadataRequest&) = default;
};

/// Decodes a Metadata request body. Errors: NotSupported outside v1-8; Corruption for
/// malformed, truncated or overlong bytes.
Result<MetadataRequest> DecodeMetadataRequest(Reader& reader, int16_t version);
void EncodeMetadataRequest(const MetadataRequest& request, int16_t version, Writer& writer);

struct MetadataBroker {
  int32_t node_id = 0;
  std::string host;
  int32_t port = 0;
  std::optional<std::string> rack;  // null when the broker has no rack

  friend bool operator==(const MetadataBroker&, const MetadataBroker&) = default;
};

struct MetadataPartition {
  ErrorCode error_code = ErrorCode::kNone;
  int32_t partition_index = 0;
  int32_t leader_id = -1;
  int32_t leader_epoch = -1;  // v7+
  std::vector<int32_t> replica_nodes;
  std::vector<int32_t> isr_nodes;
  std::vector<int32_t> offline_replicas;  // v5+

  friend bool operator==(const MetadataPartition&, const MetadataPartition&) = default;
};

/// "Not requested / unknown" for the authorized-operations bit fields (INT32 min).
inline constexpr int32_t kAuthorizedOperationsOmitted = std::numeric_limits<int32_t>::min();

struct MetadataTopic {
  ErrorCode error_code = ErrorCode::kNone;
  std::string name;
  bool is_internal = false;
  std::vector<MetadataPartition> partitions;
  int32_t topic_authorized_operations = kAuthorizedOperationsOmitted;  // v8+

  friend bool operator==(const MetadataTopic&, const MetadataTopic&) = default;
};

struct MetadataResponse {
  int32_t throttle_time_ms = 0;  // v3+
  std::vector<MetadataBroker> brokers;
  std::optional<std::string> cluster_id;  // v2+
  int32_t controller_id = -1;
  std::vector<MetadataTopic> topics;
  int32_t cluster_authorized_operations = kAuthorizedOperationsOmitted;  // v8+

  friend bool operator==(const MetadataResponse&, const MetadataResponse&) = default;
};

/// Writes a Metadata response body, v1-8. Field order: throttle_time_ms (v3+), brokers
/// [node_id, host, port, rack], cluster_id (v2+), controller_id, topics [error_code, name,
/// is_internal, partitions [error_code, partition_index, leader_id, leader_epoch (v7+),
/// replica_nodes, isr_nodes, offline_replicas (v5+)], topic_authorized_operations (v8+)],
/// cluster_authorized_operations (v8+). Fields newer than `version` are not written.
void EncodeMetadataResponse(const MetadataResponse& response, int16_t version, Writer& writer);
/// The inverse, for tests and tools; fields absent from `version` keep their defaults.
Result<MetadataResponse> DecodeMetadataResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
