#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "higgins/result.h"
#include "kafka/errors.h"
#include "kafka/versions.h"
#include "kafka/wire.h"

namespace higgins::kafka {

// ApiVersions (key 18; ApiVersionsRequest.json, ApiVersionsResponse.json), versions 0-3.
// v0-v2 requests are empty; v3 is flexible. A client sends ApiVersions first, possibly at a
// version above ours: the broker must then answer a v0 body with UNSUPPORTED_VERSION and its
// ranges (KIP-511), and the client retries at a version it finds there.

/// Views into the frame body. Empty before v3.
struct ApiVersionsRequest {
  std::string_view client_software_name;     // v3+, COMPACT_STRING
  std::string_view client_software_version;  // v3+, COMPACT_STRING

  friend bool operator==(const ApiVersionsRequest&, const ApiVersionsRequest&) = default;
};

/// Decodes the body of an ApiVersions request at `version`; the body must end where the
/// request does. Errors: NotSupported for a version outside 0-3 (answer it with
/// UnsupportedApiVersionsResponse, not by closing), Corruption for malformed bytes.
Result<ApiVersionsRequest> DecodeApiVersionsRequest(Reader& reader, int16_t version);
void EncodeApiVersionsRequest(const ApiVersionsRequest& request, int16_t version, Writer& writer);

struct ApiVersionsResponse {
  ErrorCode error_code = ErrorCode::kNone;
  std::vector<ApiVersionRange> api_keys;
  int32_t throttle_time_ms = 0;  // v1+

  friend bool operator==(const ApiVersionsResponse&, const ApiVersionsResponse&) = default;
};

/// The broker's answer to a supported ApiVersions request: every row of kSupportedApis.
ApiVersionsResponse SupportedApiVersionsResponse();

/// The answer to an ApiVersions request of a version the broker does not speak: error
/// UNSUPPORTED_VERSION with every supported range, to be encoded as version 0 (see
/// ApiVersionsResponseVersion) after a v0 response header.
ApiVersionsResponse UnsupportedApiVersionsResponse();

/// The version to encode the response to an ApiVersions request of `request_version` with:
/// the request's version if supported, else 0.
int16_t ApiVersionsResponseVersion(int16_t request_version);

/// Writes the response body (after the response header, which is v0 for ApiVersions).
/// v0: error_code INT16, api_keys ARRAY[api_key, min_version, max_version INT16]; v1-v2 add
/// throttle_time_ms INT32; v3 uses a COMPACT_ARRAY, tagged fields after each entry and after
/// the body. `version` must be 0-3.
void EncodeApiVersionsResponse(const ApiVersionsResponse& response, int16_t version,
                               Writer& writer);
/// The inverse of EncodeApiVersionsResponse, for tests and tools. Tagged fields are skipped.
Result<ApiVersionsResponse> DecodeApiVersionsResponse(Reader& reader, int16_t version);

}  // namespace higgins::kafka
