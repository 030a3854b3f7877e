#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "higgins/result.h"
#include "kafka/api.h"
#include "kafka/wire.h"

namespace higgins::kafka {

/// The header of a request frame (RequestHeader.json). Versions: v1 is api_key INT16,
/// api_version INT16, correlation_id INT32, client_id NULLABLE_STRING; v2 (flexible APIs) adds
/// a tagged-field section. client_id keeps its INT16 length even in v2, so that any broker can
/// read the header of any ApiVersions request.
struct RequestHeader {
  ApiKey api_key = ApiKey::kApiVersions;  // any INT16: check with IsSupported before use
  int16_t api_version = 0;
  int32_t correlation_id = 0;
  std::optional<std::string_view> client_id;  // a view into the frame body

  friend bool operator==(const RequestHeader&, const RequestHeader&) = default;
};

/// Reads the header at the start of a frame body (the bytes after the 4-byte size), leaving
/// `reader` at the first byte of the request body. The header version follows from the key
/// and version (IsFlexible), so an unknown key or version still yields a header: the server
/// can then answer it by correlation id. Errors: Corruption if the header is truncated or
/// malformed.
Result<RequestHeader> DecodeRequestHeader(Reader& reader);

/// Writes `header` as v1, or v2 when IsFlexible(api_key, api_version). For tests and tools.
void EncodeRequestHeader(const RequestHeader& header, Writer& writer);

/// The response header version for a request: 1 (with a tagged-field section) when the request
/// version is flexible, else 0; always 0 for ApiVersions, whose response header must stay
/// readable by a client that does not know yet what the broker speaks (ApiVersionsResponse.json).
int16_t ResponseHeaderVersion(ApiKey api_key, int16_t api_version);

/// Writes the response header (ResponseHeader.json) for a request of `api_key` at
/// `api_version`: correlation_id INT32, then an empty tagged-field section for header v1.
void EncodeResponseHeader(ApiKey api_key, int16_t api_version, int32_t correlation_id,
                          Writer& writer);

}  // namespace higgins::kafka
