#include "kafka/heartbeat.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {

Result<HeartbeatRequest> DecodeHeartbeatRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kHeartbeat, version));
  HeartbeatRequest request;
  request.group_id = reader.String();
  request.generation_id = reader.Int32();
  request.member_id = reader.String();
  if (version >= 3) request.group_instance_id = reader.NullableString();
  HIGGINS_RETURN_IF_ERROR(reader.Finish("Heartbeat request"));
  return request;
}

void EncodeHeartbeatRequest(const HeartbeatRequest& request, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kHeartbeat, version);
  writer.String(request.group_id);
  writer.Int32(request.generation_id);
  writer.String(request.member_id);
  if (version >= 3) writer.NullableString(request.group_instance_id);
}

void EncodeHeartbeatResponse(const HeartbeatResponse& response, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kHeartbeat, version);
  if (version >= 1) writer.Int32(response.throttle_time_ms);
  writer.Int16(static_cast<int16_t>(response.error_code));
}

Result<HeartbeatResponse> DecodeHeartbeatResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kHeartbeat, version));
  HeartbeatResponse response;
  if (version >= 1) response.throttle_time_ms = reader.Int32();
  response.error_code = static_cast<ErrorCode>(reader.Int16());
  HIGGINS_RETURN_IF_ERROR(reader.Finish("Heartbeat response"));
  return response;
}

}  // namespace higgins::kafka
