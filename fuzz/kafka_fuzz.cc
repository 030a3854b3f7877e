// Fuzzes the Kafka message codec with untrusted bytes taken as a request frame body (the bytes
// after the 4-byte size): DecodeRequestHeader, then DecodeRequest by the header's key and
// version; and, independently of the header, the request and response decoders of every
// API/version in kCodecVersions on the whole input and on the bytes after the header. A decoded
// message must re-encode to bytes that decode to an equal message. Failures must be Corruption
// or NotSupported. Anything else (crash, sanitizer report, failed check) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kafka/record_batch.h"
#include "kafka/request.h"
#include "kafka/request_header.h"
#include "kafka/versions.h"

namespace kafka = higgins::kafka;

namespace {

void CheckFailure(const higgins::Status& status) {
  if (status.code() != higgins::StatusCode::kCorruption &&
      status.code() != higgins::StatusCode::kNotSupported) {
    __builtin_trap();
  }
}

// Decodes `bytes` with `decode`, then checks that encoding and decoding again is stable.
template <typename Decode, typename Encode>
void RoundTrip(std::string_view bytes, int16_t version, Decode decode, Encode encode) {
  kafka::Reader reader(bytes);
  auto first = decode(reader, version);
  if (!first.ok()) {
    CheckFailure(first.status());
    return;
  }
  std::string encoded;
  kafka::Writer writer(&encoded);
  encode(*first, version, writer);
  kafka::Reader again_reader(encoded);
  auto again = decode(again_reader, version);
  if (!again.ok() || !(*again == *first)) __builtin_trap();
}

void DecodeAsEveryApi(std::string_view body) {
  for (const kafka::ApiVersionRange& range : kafka::kCodecVersions) {
    for (int16_t v = range.min_version; v <= range.max_version; ++v) {
      switch (range.api_key) {
        case kafka::ApiKey::kApiVersions:
          RoundTrip(body, v, kafka::DecodeApiVersionsRequest, kafka::EncodeApiVersionsRequest);
          RoundTrip(body, v, kafka::DecodeApiVersionsResponse, kafka::EncodeApiVersionsResponse);
          break;
        case kafka::ApiKey::kMetadata:
          RoundTrip(body, v, kafka::DecodeMetadataRequest, kafka::EncodeMetadataRequest);
          RoundTrip(body, v, kafka::DecodeMetadataResponse, kafka::EncodeMetadataResponse);
          break;
        case kafka::ApiKey::kProduce:
          RoundTrip(body, v, kafka::DecodeProduceRequest, kafka::EncodeProduceRequest);
          RoundTrip(body, v, kafka::DecodeProduceResponse, kafka::EncodeProduceResponse);
          break;
        case kafka::ApiKey::kFetch:
          RoundTrip(body, v, kafka::DecodeFetchRequest, kafka::EncodeFetchRequest);
          RoundTrip(body, v, kafka::DecodeFetchResponse, kafka::EncodeFetchResponse);
          break;
        case kafka::ApiKey::kListOffsets:
          RoundTrip(body, v, kafka::DecodeListOffsetsRequest, kafka::EncodeListOffsetsRequest);
          RoundTrip(body, v, kafka::DecodeListOffsetsResponse, kafka::EncodeListOffsetsResponse);
          break;
        case kafka::ApiKey::kFindCoordinator:
          RoundTrip(body, v, kafka::DecodeFindCoordinatorRequest,
                    kafka::EncodeFindCoordinatorRequest);
          RoundTrip(body, v, kafka::DecodeFindCoordinatorResponse,
                    kafka::EncodeFindCoordinatorResponse);
          break;
        case kafka::ApiKey::kJoinGroup:
          RoundTrip(body, v, kafka::DecodeJoinGroupRequest, kafka::EncodeJoinGroupRequest);
          RoundTrip(body, v, kafka::DecodeJoinGroupResponse, kafka::EncodeJoinGroupResponse);
          break;
        case kafka::ApiKey::kSyncGroup:
          RoundTrip(body, v, kafka::DecodeSyncGroupRequest, kafka::EncodeSyncGroupRequest);
          RoundTrip(body, v, kafka::DecodeSyncGroupResponse, kafka::EncodeSyncGroupResponse);
          break;
        case kafka::ApiKey::kHeartbeat:
          RoundTrip(body, v, kafka::DecodeHeartbeatRequest, kafka::EncodeHeartbeatRequest);
          RoundTrip(body, v, kafka::DecodeHeartbeatResponse, kafka::EncodeHeartbeatResponse);
          break;
        case kafka::ApiKey::kLeaveGroup:
          RoundTrip(body, v, kafka::DecodeLeaveGroupRequest, kafka::EncodeLeaveGroupRequest);
          RoundTrip(body, v, kafka::DecodeLeaveGroupResponse, kafka::EncodeLeaveGroupResponse);
          break;
        case kafka::ApiKey::kOffsetCommit:
          RoundTrip(body, v, kafka::DecodeOffsetCommitRequest, kafka::EncodeOffsetCommitRequest);
          RoundTrip(body, v, kafka::DecodeOffsetCommitResponse, kafka::EncodeOffsetCommitResponse);
          break;
        case kafka::ApiKey::kOffsetFetch:
          RoundTrip(body, v, kafka::DecodeOffsetFetchRequest, kafka::EncodeOffsetFetchRequest);
          RoundTrip(body, v, kafka::DecodeOffsetFetchResponse, kafka::EncodeOffsetFetchResponse);
          break;
        case kafka::ApiKey::kInitProducerId:
          RoundTrip(body, v, kafka::DecodeInitProducerIdRequest,
                    kafka::EncodeInitProducerIdRequest);
          RoundTrip(body, v, kafka::DecodeInitProducerIdResponse,
                    kafka::EncodeInitProducerIdResponse);
          break;
        case kafka::ApiKey::kDescribeConfigs:
          RoundTrip(body, v, kafka::DecodeDescribeConfigsRequest,
                    kafka::EncodeDescribeConfigsRequest);
          RoundTrip(body, v, kafka::DecodeDescribeConfigsResponse,
                    kafka::EncodeDescribeConfigsResponse);
          break;
        case kafka::ApiKey::kCreateTopics:
          RoundTrip(body, v, kafka::DecodeCreateTopicsRequest, kafka::EncodeCreateTopicsRequest);
          RoundTrip(body, v, kafka::DecodeCreateTopicsResponse, kafka::EncodeCreateTopicsResponse);
          break;
        case kafka::ApiKey::kDescribeGroups:
          RoundTrip(body, v, kafka::DecodeDescribeGroupsRequest,
                    kafka::EncodeDescribeGroupsRequest);
          RoundTrip(body, v, kafka::DecodeDescribeGroupsResponse,
                    kafka::EncodeDescribeGroupsResponse);
          break;
        case kafka::ApiKey::kListGroups:
          RoundTrip(body, v, kafka::DecodeListGroupsRequest, kafka::EncodeListGroupsRequest);
          RoundTrip(body, v, kafka::DecodeListGroupsResponse, kafka::EncodeListGroupsResponse);
          break;
        default: __builtin_trap();  // a table row without a codec
      }
    }
  }
}

// The input as the records of a Produce request: record batches v2, compressed or not, with
// small limits so that a decompression bomb is refused rather than allocated. A batch that
// decodes must encode again (uncompressed) to a batch that decodes to the same records.
void DecodeAsRecordBatches(std::string_view bytes) {
  kafka::DecodeLimits limits;
  limits.max_decompressed_bytes = 1 << 20;
  limits.max_records = 10'000;
  auto batches = kafka::DecodeRecordBatches(bytes, limits);
  if (!batches.ok()) {
    const auto code = batches.status().code();
    if (code != higgins::StatusCode::kCorruption && code != higgins::StatusCode::kNotSupported &&
        code != higgins::StatusCode::kResourceExhausted) {
      __builtin_trap();
    }
    return;
  }
  for (const kafka::RecordBatch& batch : *batches) {
    std::vector<kafka::RecordToWrite> records;
    for (const kafka::Record& r : batch.records) {
      records.push_back({batch.base_timestamp + r.timestamp_delta, r.key, r.value, r.headers});
    }
    kafka::BatchToWrite out;
    out.base_offset = batch.base_offset;
    out.records = records;
    auto encoded = kafka::EncodeRecordBatch(out);
    if (!encoded.ok()) __builtin_trap();
    auto again = kafka::DecodeRecordBatches(*encoded);
    if (!again.ok() || again->size() != 1 || (*again)[0].records.size() != batch.records.size()) {
      __builtin_trap();
    }
    for (size_t i = 0; i < batch.records.size(); ++i) {
      if ((*again)[0].records[i].key != batch.records[i].key ||
          (*again)[0].records[i].value != batch.records[i].value) {
        __builtin_trap();
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view frame(reinterpret_cast<const char*>(data), size);
  kafka::Reader reader(frame);
  auto header = kafka::DecodeRequestHeader(reader);
  if (!header.ok()) {
    CheckFailure(header.status());
  } else {
    const std::string_view body = reader.rest();
    auto request = kafka::DecodeRequest(*header, reader);
    if (request.ok()) {
      if (kafka::ApiKeyOf(*request) != header->api_key) __builtin_trap();
      // The whole frame re-encodes to the same message.
      std::string encoded;
      kafka::Writer writer(&encoded);
      kafka::EncodeRequestHeader(*header, writer);
      kafka::EncodeRequest(*request, header->api_version, writer);
      kafka::Reader again(encoded);
      auto again_header = kafka::DecodeRequestHeader(again);
      if (!again_header.ok() || !(*again_header == *header)) __builtin_trap();
      auto again_request = kafka::DecodeRequest(*again_header, again);
      if (!again_request.ok() || !(*again_request == *request)) __builtin_trap();
    } else {
      CheckFailure(request.status());
      if (request.status().code() == higgins::StatusCode::kNotSupported &&
          kafka::CodecKnows(header->api_key, header->api_version)) {
        __builtin_trap();
      }
    }
    DecodeAsEveryApi(body);
  }
  DecodeAsEveryApi(frame);
  DecodeAsRecordBatches(frame);
  return 0;
}
