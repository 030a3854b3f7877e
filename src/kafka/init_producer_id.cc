#include "kafka/init_producer_id.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {

Result<InitProducerIdRequest> DecodeInitProducerIdRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kInitProducerId, version));
  InitProducerIdRequest request;
  request.transactional_id = reader.NullableString();
  request.transaction_timeout_ms = reader.Int32();
  HIGGINS_RETURN_IF_ERROR(reader.Finish("InitProducerId request"));
  return request;
}

void EncodeInitProducerIdRequest(const InitProducerIdRequest& request, int16_t version,
                                 Writer& writer) {
  internal::AssertVersion(ApiKey::kInitProducerId, version);
  writer.NullableString(request.transactional_id);
  writer.Int32(request.transaction_timeout_ms);
}

void EncodeInitProducerIdResponse(const InitProducerIdResponse& response, int16_t version,
                                  Writer& writer) {
  internal::AssertVersion(ApiKey::kInitProducerId, version);
  writer.Int32(response.throttle_time_ms);
  writer.Int16(static_cast<int16_t>(response.error_code));
  writer.Int64(response.producer_id);
  writer.Int16(response.producer_epoch);
}

Result<InitProducerIdResponse> DecodeInitProducerIdResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kInitProducerId, version));
  InitProducerIdResponse response;
  response.throttle_time_ms = reader.Int32();
  response.error_code = static_cast<ErrorCode>(reader.Int16());
  response.producer_id = reader.Int64();
  response.producer_epoch = reader.Int16();
  HIGGINS_RETURN_IF_ERROR(reader.Finish("InitProducerId response"));
  return response;
}

}  // namespace higgins::kafka
