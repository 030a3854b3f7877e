#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "kafka/api.h"

namespace higgins::kafka {

// Which APIs and versions the broker speaks, and which versions of each API are "flexible"
// (compact lengths and tagged fields, KIP-482). Advertise only what is implemented: clients
// pick min(their max, our max) per API.

/// An inclusive range of versions of one API, as listed in an ApiVersions response.
struct ApiVersionRange {
  ApiKey api_key;
  int16_t min_version;
  int16_t max_version;

  friend bool operator==(const ApiVersionRange&, const ApiVersionRange&) = default;
};

/// The versions the broker advertises and decodes, sorted by key. To add an API, add its row
/// here and its first flexible version to FirstFlexibleVersion below.
inline constexpr ApiVersionRange kSupportedApis[] = {
    {ApiKey::kProduce, 0, 7},      // 0 enables compression in librdkafka < 2.11.1; 7 zstd
    {ApiKey::kFetch, 4, 11},       // 4: record batches v2; 11: rack-aware (preferred replica)
    {ApiKey::kListOffsets, 1, 2},  // 2: isolation level
    {ApiKey::kMetadata, 1, 8},     // 1: null topics means all
    {ApiKey::kOffsetCommit, 2, 7},
    {ApiKey::kOffsetFetch, 1, 7},  // 6 and later are flexible
    {ApiKey::kFindCoordinator, 0, 2},
    {ApiKey::kJoinGroup, 0, 5},  // 4: MEMBER_ID_REQUIRED
                                 // (KIP-394)
    {ApiKey::kHeartbeat, 0, 3},
    {ApiKey::kLeaveGroup, 0, 3},
    {ApiKey::kSyncGroup, 0, 3},
    {ApiKey::kDescribeGroups, 0, 4},  // admin tools: kafka-consumer-groups, kafkajs' admin
    {ApiKey::kListGroups, 0, 2},
    {ApiKey::kApiVersions, 0, 3},     // 3: flexible
    {ApiKey::kCreateTopics, 0, 4},    // refused: topics are declared streams
    {ApiKey::kInitProducerId, 0, 1},  // idempotent producers (not transactional ones)
    {ApiKey::kDescribeConfigs, 0, 2},
};

/// The versions the codecs of this folder decode and encode, sorted by key: each row of
/// kSupportedApis and more. Knowing a message is not serving it: the server advertises and
/// answers kSupportedApis only, and an API is added there once the server handles it. To add a
/// codec, add its row here (non-flexible versions only, unless the codec speaks the compact
/// encoding as ApiVersions v3 does).
inline constexpr ApiVersionRange kCodecVersions[] = {
    {ApiKey::kProduce, 0, 7},          // served
    {ApiKey::kFetch, 4, 11},           // served
    {ApiKey::kListOffsets, 1, 2},      // served
    {ApiKey::kMetadata, 1, 8},         // served
    {ApiKey::kOffsetCommit, 2, 7},     // 2-4: retention_time_ms; 7: group_instance_id
    {ApiKey::kOffsetFetch, 1, 7},      // 2: null topics means all; 5: leader epoch; 6: flexible
    {ApiKey::kFindCoordinator, 0, 2},  // 1: key_type
    {ApiKey::kJoinGroup, 0, 5},        // 5: static membership (group_instance_id)
    {ApiKey::kHeartbeat, 0, 3},        // 3: group_instance_id
    {ApiKey::kLeaveGroup, 0, 3},       // 3: a batch of members
    {ApiKey::kSyncGroup, 0, 3},        // 3: group_instance_id
    {ApiKey::kDescribeGroups, 0, 4},   // served; 4: members' group_instance_id
    {ApiKey::kListGroups, 0, 2},       // served
    {ApiKey::kApiVersions, 0, 3},      // served; 3 is flexible
    {ApiKey::kCreateTopics, 0, 4},     // served; 1: validate_only
    {ApiKey::kInitProducerId, 0, 1},   // served
    {ApiKey::kDescribeConfigs, 0, 2},  // served; 1: synonyms and config_source
};

/// The advertised range for `key`, or nullopt if the broker does not implement it.
constexpr std::optional<ApiVersionRange> SupportedVersions(ApiKey key) {
  for (const ApiVersionRange& range : kSupportedApis) {
    if (range.api_key == key) return range;
  }
  return std::nullopt;
}

/// Whether the broker decodes `version` of `key`.
constexpr bool IsSupported(ApiKey key, int16_t version) {
  const auto range = SupportedVersions(key);
  return range && version >= range->min_version && version <= range->max_version;
}

/// The range the codec knows for `key`, or nullopt if it has no codec for it.
constexpr std::optional<ApiVersionRange> CodecVersions(ApiKey key) {
  for (const ApiVersionRange& range : kCodecVersions) {
    if (range.api_key == key) return range;
  }
  return std::nullopt;
}

/// Whether the codec decodes and encodes `version` of `key` (see kCodecVersions).
constexpr bool CodecKnows(ApiKey key, int16_t version) {
  const auto range = CodecVersions(key);
  return range && version >= range->min_version && version <= range->max_version;
}

// The broker can only serve what the codec knows.
static_assert([] {
  for (const ApiVersionRange& supported : kSupportedApis) {
    if (!CodecKnows(supported.api_key, supported.min_version) ||
        !CodecKnows(supported.api_key, supported.max_version)) {
      return false;
    }
  }
  return true;
}());

/// The first flexible version of `key` ("flexibleVersions" in each *Request.json), or nullopt
/// if no version of it is flexible or Higgins does not know the API.
constexpr std::optional<int16_t> FirstFlexibleVersion(ApiKey key) {
  // Per API, its first flexible version (its *Request.json "flexibleVersions"); APIs never
  // flexible (SaslHandshake) are absent.
  constexpr std::pair<ApiKey, int16_t> kFirstFlexible[] = {
      {ApiKey::kProduce, 9},
      {ApiKey::kFetch, 12},
      {ApiKey::kListOffsets, 6},
      {ApiKey::kMetadata, 9},
      {ApiKey::kOffsetCommit, 8},
      {ApiKey::kOffsetFetch, 6},
      {ApiKey::kFindCoordinator, 3},
      {ApiKey::kJoinGroup, 6},
      {ApiKey::kHeartbeat, 4},
      {ApiKey::kLeaveGroup, 4},
      {ApiKey::kSyncGroup, 4},
      {ApiKey::kDescribeGroups, 5},
      {ApiKey::kListGroups, 3},
      {ApiKey::kApiVersions, 3},
      {ApiKey::kCreateTopics, 5},
      {ApiKey::kDeleteTopics, 4},
      {ApiKey::kDeleteRecords, 2},
      {ApiKey::kInitProducerId, 2},
      {ApiKey::kOffsetForLeaderEpoch, 4},
      {ApiKey::kAddPartitionsToTxn, 3},
      {ApiKey::kAddOffsetsToTxn, 3},
      {ApiKey::kEndTxn, 3},
      {ApiKey::kTxnOffsetCommit, 3},
      {ApiKey::kDescribeConfigs, 4},
      {ApiKey::kAlterConfigs, 2},
      {ApiKey::kSaslAuthenticate, 2},
      {ApiKey::kCreatePartitions, 2},
      {ApiKey::kDeleteGroups, 2},
  };
  for (const auto& [api, version] : kFirstFlexible) {
    if (api == key) return version;
  }
  return std::nullopt;
}

/// Whether `version` of `key` uses the flexible encoding: request header v2 and compact fields
/// in the body (and, except for ApiVersions, response header v1). Unknown APIs are treated as
/// not flexible, which is enough to read their header's correlation id and client id.
constexpr bool IsFlexible(ApiKey key, int16_t version) {
  const auto first = FirstFlexibleVersion(key);
  return first && version >= *first;
}

}  // namespace higgins::kafka
