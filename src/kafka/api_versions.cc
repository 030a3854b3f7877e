#include "kafka/api_versions.h"

#include <iterator>

#include "kafka/message_internal.h"

namespace higgins::kafka {
namespace {

constexpr int16_t kFirstFlexible = 3;
constexpr size_t kApiVersionEntryBytes = 6;  // three INT16

}  // namespace

Result<ApiVersionsRequest> DecodeApiVersionsRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kApiVersions, version));
  ApiVersionsRequest request;
  if (version >= kFirstFlexible) {
    request.client_software_name = reader.CompactString();
    request.client_software_version = reader.CompactString();
    reader.SkipTaggedFields();
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("ApiVersions request"));
  return request;
}

void EncodeApiVersionsRequest(const ApiVersionsRequest& request, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kApiVersions, version);
  if (version >= kFirstFlexible) {
    writer.CompactString(request.client_software_name);
    writer.CompactString(request.client_software_version);
    writer.EmptyTaggedFields();
  }
}

ApiVersionsResponse SupportedApiVersionsResponse() {
  ApiVersionsResponse response;
  response.api_keys.assign(std::begin(kSupportedApis), std::end(kSupportedApis));
  return response;
}

ApiVersionsResponse UnsupportedApiVersionsResponse() {
  ApiVersionsResponse response = SupportedApiVersionsResponse();
  response.error_code = ErrorCode::kUnsupportedVersion;
  return response;
}

int16_t ApiVersionsResponseVersion(int16_t request_version) {
  return IsSupported(ApiKey::kApiVersions, request_version) ? request_version : 0;
}

void EncodeApiVersionsResponse(const ApiVersionsResponse& response, int16_t version,
                               Writer& writer) {
  internal::AssertVersion(ApiKey::kApiVersions, version);
  const bool flexible = version >= kFirstFlexible;
  writer.Int16(static_cast<int16_t>(response.error_code));
  if (flexible) {
    writer.CompactArrayLength(response.api_keys.size());
  } else {
    writer.ArrayLength(response.api_keys.size());
  }
  for (const ApiVersionRange& range : response.api_keys) {
    writer.Int16(static_cast<int16_t>(range.api_key));
    writer.Int16(range.min_version);
    writer.Int16(range.max_version);
    if (flexible) writer.EmptyTaggedFields();
  }
  if (version >= 1) writer.Int32(response.throttle_time_ms);
  if (flexible) writer.EmptyTaggedFields();
}

Result<ApiVersionsResponse> DecodeApiVersionsResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kApiVersions, version));
  const bool flexible = version >= kFirstFlexible;
  ApiVersionsResponse response;
  response.error_code = static_cast<ErrorCode>(reader.Int16());
  const int32_t count = flexible ? reader.CompactArrayLength(kApiVersionEntryBytes + 1)
                                 : reader.ArrayLength(kApiVersionEntryBytes);
  response.api_keys.reserve(count);
  for (int32_t i = 0; i < count && reader.ok(); ++i) {
    ApiVersionRange range;
    range.api_key = static_cast<ApiKey>(reader.Int16());
    range.min_version = reader.Int16();
    range.max_version = reader.Int16();
    if (flexible) reader.SkipTaggedFields();
    response.api_keys.push_back(range);
  }
  if (version >= 1) response.throttle_time_ms = reader.Int32();
  if (flexible) reader.SkipTaggedFields();
  HIGGINS_RETURN_IF_ERROR(reader.Finish("ApiVersions response"));
  return response;
}

}  // namespace higgins::kafka
