#include "kafka/request.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {
namespace {

template <typename T>
Result<Request> Wrap(Result<T> result) {
  if (!result.ok()) return result.status();
  return Request(std::move(result).value());
}

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

}  // namespace

Result<Request> DecodeRequest(const RequestHeader& header, Reader& reader) {
  const int16_t v = header.api_version;
  switch (header.api_key) {
    case ApiKey::kApiVersions: return Wrap(DecodeApiVersionsRequest(reader, v));
    case ApiKey::kMetadata: return Wrap(DecodeMetadataRequest(reader, v));
    case ApiKey::kProduce: return Wrap(DecodeProduceRequest(reader, v));
    case ApiKey::kFetch: return Wrap(DecodeFetchRequest(reader, v));
    case ApiKey::kListOffsets: return Wrap(DecodeListOffsetsRequest(reader, v));
    case ApiKey::kFindCoordinator: return Wrap(DecodeFindCoordinatorRequest(reader, v));
    case ApiKey::kJoinGroup: return Wrap(DecodeJoinGroupRequest(reader, v));
    case ApiKey::kSyncGroup: return Wrap(DecodeSyncGroupRequest(reader, v));
    case ApiKey::kHeartbeat: return Wrap(DecodeHeartbeatRequest(reader, v));
    case ApiKey::kLeaveGroup: return Wrap(DecodeLeaveGroupRequest(reader, v));
    case ApiKey::kOffsetCommit: return Wrap(DecodeOffsetCommitRequest(reader, v));
    case ApiKey::kOffsetFetch: return Wrap(DecodeOffsetFetchRequest(reader, v));
    case ApiKey::kInitProducerId: return Wrap(DecodeInitProducerIdRequest(reader, v));
    case ApiKey::kDescribeConfigs: return Wrap(DecodeDescribeConfigsRequest(reader, v));
    case ApiKey::kCreateTopics: return Wrap(DecodeCreateTopicsRequest(reader, v));
    case ApiKey::kDescribeGroups: return Wrap(DecodeDescribeGroupsRequest(reader, v));
    case ApiKey::kListGroups: return Wrap(DecodeListGroupsRequest(reader, v));
    default: break;
  }
  return Status::NotSupported("API key " + std::to_string(static_cast<int>(header.api_key)) + " (" +
                              std::string(ApiKeyName(header.api_key)) + ") is not supported");
}

ApiKey ApiKeyOf(const Request& request) {
  return std::visit(Overloaded{
                        [](const ApiVersionsRequest&) { return ApiKey::kApiVersions; },
                        [](const MetadataRequest&) { return ApiKey::kMetadata; },
                        [](const ProduceRequest&) { return ApiKey::kProduce; },
                        [](const FetchRequest&) { return ApiKey::kFetch; },
                        [](const ListOffsetsRequest&) { return ApiKey::kListOffsets; },
                        [](const FindCoordinatorRequest&) { return ApiKey::kFindCoordinator; },
                        [](const JoinGroupRequest&) { return ApiKey::kJoinGroup; },
                        [](const SyncGroupRequest&) { return ApiKey::kSyncGroup; },
                        [](const HeartbeatRequest&) { return ApiKey::kHeartbeat; },
                        [](const LeaveGroupRequest&) { return ApiKey::kLeaveGroup; },
                        [](const OffsetCommitRequest&) { return ApiKey::kOffsetCommit; },
                        [](const OffsetFetchRequest&) { return ApiKey::kOffsetFetch; },
                        [](const InitProducerIdRequest&) { return ApiKey::kInitProducerId; },
                        [](const DescribeConfigsRequest&) { return ApiKey::kDescribeConfigs; },
                        [](const CreateTopicsRequest&) { return ApiKey::kCreateTopics; },
                        [](const DescribeGroupsRequest&) { return ApiKey::kDescribeGroups; },
                        [](const ListGroupsRequest&) { return ApiKey::kListGroups; },
                    },
                    request);
}

void EncodeRequest(const Request& request, int16_t version, Writer& writer) {
  std::visit(
      Overloaded{
          [&](const ApiVersionsRequest& r) { EncodeApiVersionsRequest(r, version, writer); },
          [&](const MetadataRequest& r) { EncodeMetadataRequest(r, version, writer); },
          [&](const ProduceRequest& r) { EncodeProduceRequest(r, version, writer); },
          [&](const FetchRequest& r) { EncodeFetchRequest(r, version, writer); },
          [&](const ListOffsetsRequest& r) { EncodeListOffsetsRequest(r, version, writer); },
          [&](const FindCoordinatorRequest& r) {
            EncodeFindCoordinatorRequest(r, version, writer);
          },
          [&](const JoinGroupRequest& r) { EncodeJoinGroupRequest(r, version, writer); },
          [&](const SyncGroupRequest& r) { EncodeSyncGroupRequest(r, version, writer); },
          [&](const HeartbeatRequest& r) { EncodeHeartbeatRequest(r, version, writer); },
          [&](const LeaveGroupRequest& r) { EncodeLeaveGroupRequest(r, version, writer); },
          [&](const OffsetCommitRequest& r) { EncodeOffsetCommitRequest(r, version, writer); },
          [&](const OffsetFetchRequest& r) { EncodeOffsetFetchRequest(r, version, writer); },
          [&](const InitProducerIdRequest& r) { EncodeInitProducerIdRequest(r, version, writer); },
          [&](const DescribeConfigsRequest& r) {
            EncodeDescribeConfigsRequest(r, version, writer);
          },
          [&](const CreateTopicsRequest& r) { EncodeCreateTopicsRequest(r, version, writer); },
          [&](const DescribeGroupsRequest& r) { EncodeDescribeGroupsRequest(r, version, writer); },
          [&](const ListGroupsRequest& r) { EncodeListGroupsRequest(r, version, writer); },
      },
      request);
}

}  // namespace higgins::kafka
