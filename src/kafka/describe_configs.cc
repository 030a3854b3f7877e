#include "kafka/describe_configs.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {
namespace {

// Smallest encodings of one array element, which bound the counts a reader accepts.
constexpr size_t kMinResourceBytes = 1 + 2 + 4;
constexpr size_t kMinKeyBytes = 2;
constexpr size_t kMinResultBytes = 2 + 2 + 1 + 2 + 4;
constexpr size_t kMinEntryBytes = 2 + 2 + 1 + 1 + 1;  // v1 adds a synonym count
constexpr size_t kMinSynonymBytes = 2 + 2 + 1;

void EncodeEntry(const DescribeConfigsEntry& e, int16_t version, Writer& writer) {
  writer.String(e.name);
  writer.NullableString(e.value);
  writer.Boolean(e.read_only);
  if (version == 0) {
    writer.Boolean(e.is_default);
  } else {
    writer.Int8(e.config_source);
  }
  writer.Boolean(e.is_sensitive);
  if (version == 0) return;
  writer.ArrayLength(e.synonyms.size());
  for (const DescribeConfigsSynonym& s : e.synonyms) {
    writer.String(s.name);
    writer.NullableString(s.value);
    writer.Int8(s.source);
  }
}

DescribeConfigsEntry DecodeEntry(Reader& reader, int16_t version) {
  DescribeConfigsEntry e;
  e.name = reader.String();
  e.value = internal::OwnedOrNull(reader.NullableString());
  e.read_only = reader.Boolean();
  if (version == 0) {
    e.is_default = reader.Boolean();
  } else {
    e.config_source = reader.Int8();
  }
  e.is_sensitive = reader.Boolean();
  if (version == 0) return e;
  const int32_t synonyms = reader.ArrayLength(kMinSynonymBytes);
  for (int32_t i = 0; i < synonyms && reader.ok(); ++i) {
    DescribeConfigsSynonym s;
    s.name = reader.String();
    s.value = internal::OwnedOrNull(reader.NullableString());
    s.source = reader.Int8();
    e.synonyms.push_back(std::move(s));
  }
  return e;
}

}  // namespace

Result<DescribeConfigsRequest> DecodeDescribeConfigsRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kDescribeConfigs, version));
  DescribeConfigsRequest request;
  const int32_t resources = reader.ArrayLength(kMinResourceBytes);
  request.resources.reserve(resources);
  for (int32_t i = 0; i < resources && reader.ok(); ++i) {
    DescribeConfigsResource r;
    r.resource_type = reader.Int8();
    r.resource_name = reader.String();
    if (const auto keys = reader.NullableArrayLength(kMinKeyBytes)) {
      r.configuration_keys.emplace();
      r.configuration_keys->reserve(*keys);
      for (int32_t j = 0; j < *keys && reader.ok(); ++j) {
        r.configuration_keys->push_back(reader.String());
      }
    }
    request.resources.push_back(std::move(r));
  }
  if (version >= 1) request.include_synonyms = reader.Boolean();
  HIGGINS_RETURN_IF_ERROR(reader.Finish("DescribeConfigs request"));
  return request;
}

void EncodeDescribeConfigsRequest(const DescribeConfigsRequest& request, int16_t version,
                                  Writer& writer) {
  internal::AssertVersion(ApiKey::kDescribeConfigs, version);
  writer.ArrayLength(request.resources.size());
  for (const DescribeConfigsResource& r : request.resources) {
    writer.Int8(r.resource_type);
    writer.String(r.resource_name);
    if (r.configuration_keys) {
      writer.ArrayLength(r.configuration_keys->size());
      for (std::string_view key : *r.configuration_keys) writer.String(key);
    } else {
      writer.NullArray();
    }
  }
  if (version >= 1) writer.Boolean(request.include_synonyms);
}

void EncodeDescribeConfigsResponse(const DescribeConfigsResponse& response, int16_t version,
                                   Writer& writer) {
  internal::AssertVersion(ApiKey::kDescribeConfigs, version);
  writer.Int32(response.throttle_time_ms);
  writer.ArrayLength(response.results.size());
  for (const DescribeConfigsResult& r : response.results) {
    writer.Int16(static_cast<int16_t>(r.error_code));
    writer.NullableString(r.error_message);
    writer.Int8(r.resource_type);
    writer.String(r.resource_name);
    writer.ArrayLength(r.configs.size());
    for (const DescribeConfigsEntry& e : r.configs) EncodeEntry(e, version, writer);
  }
}

Result<DescribeConfigsResponse> DecodeDescribeConfigsResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kDescribeConfigs, version));
  DescribeConfigsResponse response;
  response.throttle_time_ms = reader.Int32();
  const int32_t results = reader.ArrayLength(kMinResultBytes);
  for (int32_t i = 0; i < results && reader.ok(); ++i) {
    DescribeConfigsResult r;
    r.error_code = static_cast<ErrorCode>(reader.Int16());
    r.error_message = internal::OwnedOrNull(reader.NullableString());
    r.resource_type = reader.Int8();
    r.resource_name = reader.String();
    const int32_t configs = reader.ArrayLength(kMinEntryBytes);
    for (int32_t j = 0; j < configs && reader.ok(); ++j) {
      r.configs.push_back(DecodeEntry(reader, version));
    }
    response.results.push_back(std::move(r));
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("DescribeConfigs response"));
  return response;
}

}  // namespace higgins::kafka
