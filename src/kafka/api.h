#pragma once

#include <cstdint>
#include <string_view>

namespace higgins::kafka {

/// The API keys of the Kafka protocol (the protocol guide, "Api Keys"; the "apiKey" of each
/// message JSON under clients/src/main/resources/common/message/). A request header may carry
/// any INT16, so a value outside this list is representable and must be checked (see
/// versions.h) before it is trusted.
enum class ApiKey : int16_t {
  kProduce = 0,
  kFetch = 1,
  kListOffsets = 2,
  kMetadata = 3,
  kOffsetCommit = 8,
  kOffsetFetch = 9,
  kFindCoordinator = 10,
  kJoinGroup = 11,
  kHeartbeat = 12,
  kLeaveGroup = 13,
  kSyncGroup = 14,
  kDescribeGroups = 15,
  kListGroups = 16,
  kSaslHandshake = 17,
  kApiVersions = 18,
  kCreateTopics = 19,
  kDeleteTopics = 20,
  kDeleteRecords = 21,
  kInitProducerId = 22,
  kOffsetForLeaderEpoch = 23,
  kAddPartitionsToTxn = 24,
  kAddOffsetsToTxn = 25,
  kEndTxn = 26,
  kTxnOffsetCommit = 28,
  kDescribeConfigs = 32,
  kAlterConfigs = 33,
  kSaslAuthenticate = 36,
  kCreatePartitions = 37,
  kDeleteGroups = 42,
};

/// The message name without the Request/Response suffix ("Produce", "ApiVersions"), or
/// "Unknown" for a key not listed above.
std::string_view ApiKeyName(ApiKey key);

}  // namespace higgins::kafka
