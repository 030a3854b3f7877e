#include "kafka/find_coordinator.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {

Result<FindCoordinatorRequest> DecodeFindCoordinatorRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kFindCoordinator, version));
  FindCoordinatorRequest request;
  request.key = reader.String();
  if (version >= 1) request.key_type = reader.Int8();
  HIGGINS_RETURN_IF_ERROR(reader.Finish("FindCoordinator request"));
  return request;
}

void EncodeFindCoordinatorRequest(const FindCoordinatorRequest& request, int16_t version,
                                  Writer& writer) {
  internal::AssertVersion(ApiKey::kFindCoordinator, version);
  writer.String(request.key);
  if (version >= 1) writer.Int8(request.key_type);
}

void EncodeFindCoordinatorResponse(const FindCoordinatorResponse& response, int16_t version,
                                   Writer& writer) {
  internal::AssertVersion(ApiKey::kFindCoordinator, version);
  if (version >= 1) writer.Int32(response.throttle_time_ms);
  writer.Int16(static_cast<int16_t>(response.error_code));
  if (version >= 1) writer.NullableString(response.error_message);
  writer.Int32(response.node_id);
  writer.String(response.host);
  writer.Int32(response.port);
}

Result<FindCoordinatorResponse> DecodeFindCoordinatorResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kFindCoordinator, version));
  FindCoordinatorResponse response;
  if (version >= 1) response.throttle_time_ms = reader.Int32();
  response.error_code = static_cast<ErrorCode>(reader.Int16());
  if (version >= 1) response.error_message = internal::OwnedOrNull(reader.NullableString());
  response.node_id = reader.Int32();
  response.host = reader.String();
  response.port = reader.Int32();
  HIGGINS_RETURN_IF_ERROR(reader.Finish("FindCoordinator response"));
  return response;
}

}  // namespace higgins::kafka
