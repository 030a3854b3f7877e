#pragma once

#include <cstdint>
#include <variant>

#include "higgins/result.h"
#include "kafka/api_versions.h"
#include "kafka/fetch.h"
#include "kafka/list_offsets.h"
#include "kafka/metadata.h"
#include "kafka/produce.h"
#include "kafka/request_header.h"
#include "kafka/wire.h"

namespace higgins::kafka {

/// A decoded request body of any API in kSupportedApis. Its views point into the frame body.
using Request = std::variant<ApiVersionsRequest, MetadataRequest, ProduceRequest, FetchRequest,
                             ListOffsetsRequest>;

/// Decodes the request body that follows `header` in `reader` (see DecodeRequestHeader), by
/// header.api_key and header.api_version. Errors: NotSupported for a key or version outside
/// kSupportedApis (for ApiVersions, answer with UnsupportedApiVersionsResponse; for others
/// Kafka closes the connection), Corruption for malformed bytes.
Result<Request> DecodeRequest(const RequestHeader& header, Reader& reader);

/// The API a Request holds.
ApiKey ApiKeyOf(const Request& request);

/// Writes the body of `request` at `version` (which must be supported). For tests and tools.
void EncodeRequest(const Request& request, int16_t version, Writer& writer);

}  // namespace higgins::kafka
