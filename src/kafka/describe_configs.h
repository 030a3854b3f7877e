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

// DescribeConfigs (key 32; DescribeConfigsRequest.json, DescribeConfigsResponse.json),
// versions 0-2, none flexible. v1 asks for synonyms and answers a config source in place of
// v0's is_default; v2 is v1 again (throttling before the response); v3 adds documentation
// (not spoken here), v4 is flexible.

/// Resource types (ConfigResource.Type).
inline constexpr int8_t kResourceTypeUnknown = 0;
inline constexpr int8_t kResourceTypeTopic = 2;
inline constexpr int8_t kResourceTypeBroker = 4;

/// Config sources of v1+ (DescribeConfigsResponse.ConfigSource).
inline constexpr int8_t kConfigSourceUnknown = 0;
inline constexpr int8_t kConfigSourceTopicConfig = 1;
inline constexpr int8_t kConfigSourceStaticBrokerConfig = 4;
inline constexpr int8_t kConfigSourceDefaultConfig = 5;

/// Strings are views into the frame body.
struct DescribeConfigsResource {
  int8_t resource_type = kResourceTypeUnknown;
  std::string_view resource_name;
  /// nullopt (a null array) asks for every config of the resource.
  std::optional<std::vector<std::string_view>> configuration_keys;

  friend bool operator==(const DescribeConfigsResource&, const DescribeConfigsResource&) = default;
};

struct DescribeConfigsRequest {
  std::vector<DescribeConfigsResource> resources;
  bool include_synonyms = false;  // v1+

  friend bool operator==(const DescribeConfigsRequest&, const DescribeConfigsRequest&) = default;
};

/// Decodes a DescribeConfigs request body. Errors: NotSupported outside v0-2; Corruption for
/// malformed, truncated or overlong bytes.
Result<DescribeConfigsRequest> DecodeDescribeConfigsRequest(Reader& reader, int16_t version);
void EncodeDescribeConfigsRequest(const DescribeConfigsRequest& request, int16_t version,
                                  Writer& writer);

struct DescribeConfigsSynonym {
  std::string name;
  std::optional<std::string> value;
  int8_t source = kConfigSourceUnknown;

  friend bool operator==(const DescribeConfigsSynonym&, const DescribeConfigsSynonym&) = default;
};

/// One config of a resource. v0 says whether it is at its default (`is_default`); v1+ says
/// where its value comes from (`config_source`) instead. Each is written only at its versions.
struct DescribeConfigsEntry {
  std::string name;
  std::optional<std::string> value;  // null when sensitive
  bool read_only = false;
  bool is_default = false;    // v0 only
  int8_t config_source = -1;  // v1+
  bool is_sensitive = false;
  std::vector<DescribeConfigsSynonym> synonyms;  // v1+

  friend bool operator==(const DescribeConfigsEntry&, const DescribeConfigsEntry&) = default;
};

struct DescribeConfigsResult {
  ErrorCode error_code = ErrorCode::kNone;
  std::optional<std::string> error_message;
  int8_t resource_type = kResourceTypeUnknown;
  std::string resource_name;
  std::vector<DescribeConfigsEntry> configs;

  friend bool operator==(const DescribeConfigsResult&, const DescribeConfigsResult&) = default;
};

struct DescribeConfigsResponse {
  int32_t throttle_time_ms = 0;
  std::vector<DescribeConfigsResult> results;

  friend bool operator==(const DescribeConfigsResponse&, const DescribeConfigsResponse&) = default;
};

/// Writes a DescribeConfigs response body, v0-2. Field order: throttle_time_ms, results
/// [error_code, error_message, resource_type, resource_name, configs [name, value, read_only,
/// is_default (v0) / config_source (v1+), is_sensitive, synonyms (v1+) [name, value,
/// source]]]. Fields of other versions are not written.
void EncodeDescribeConfigsResponse(const DescribeConfigsResponse& response, int16_t version,
                                   Writer& writer);
/// The inverse, for tests and tools; fields absent from `version` keep their defaults.
Result<DescribeConfigsResponse> DecodeDescribeConfigsResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
