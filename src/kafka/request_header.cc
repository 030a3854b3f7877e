#include "kafka/request_header.h"

#include "kafka/versions.h"

namespace higgins::kafka {

Result<RequestHeader> DecodeRequestHeader(Reader& reader) {
  RequestHeader header;
  header.api_key = static_cast<ApiKey>(reader.Int16());
  header.api_version = reader.Int16();
  header.correlation_id = reader.Int32();
  header.client_id = reader.NullableString();
  if (IsFlexible(header.api_key, header.api_version)) reader.SkipTaggedFields();
  if (!reader.ok()) return reader.status().WithContext("request header");
  return header;
}

void EncodeRequestHeader(const RequestHeader& header, Writer& writer) {
  writer.Int16(static_cast<int16_t>(header.api_key));
  writer.Int16(header.api_version);
  writer.Int32(header.correlation_id);
  writer.NullableString(header.client_id);
  if (IsFlexible(header.api_key, header.api_version)) writer.EmptyTaggedFields();
}

int16_t ResponseHeaderVersion(ApiKey api_key, int16_t api_version) {
  if (api_key == ApiKey::kApiVersions) return 0;
  return IsFlexible(api_key, api_version) ? 1 : 0;
}

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): the order of the header's fields
void EncodeResponseHeader(ApiKey api_key, int16_t api_version, int32_t correlation_id,
                          Writer& writer) {
  writer.Int32(correlation_id);
  if (ResponseHeaderVersion(api_key, api_version) == 1) writer.EmptyTaggedFields();
}

}  // namespace higgins::kafka
