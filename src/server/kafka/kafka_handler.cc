#include "server/kafka/kafka_handler.h"

#include <spdlog/spdlog.h>

#include "kafka/api_versions.h"
#include "kafka/metadata.h"
#include "kafka/request_header.h"
#include "kafka/versions.h"
#include "server/kafka/kafka_requests.h"

namespace higgins::server::kafka {

using namespace higgins::kafka;  // NOLINT(google-build-using-namespace): the codec's names

KafkaHandler::KafkaHandler(broker::BrokerApi* api, KafkaHandlerOptions options,
                           OffsetStore* offsets)
    : api_(api),
      options_(std::move(options)),
      offsets_(offsets),
      producers_(options_.producer_state, options_.producer_ids) {
  if (offsets_ != nullptr) committer_ = std::make_unique<OffsetCommitter>(offsets_);
}

KafkaHandler::~KafkaHandler() = default;

void KafkaHandler::Handle(std::string request, const asio::any_io_executor& executor, Done done) {
  // The views of the decoded request point into `body`, which lives as long as the request.
  auto body = std::make_shared<const std::string>(std::move(request));
  Reader reader(*body);
  auto header = DecodeRequestHeader(reader);
  if (!header.ok())
    return done(CloseWith("malformed request header: " + header.status().message()));
  const RequestHeader& h = *header;
  if (h.api_key == ApiKey::kApiVersions) return done(ApiVersions(h, reader));
  if (!IsSupported(h.api_key, h.api_version)) {
    // No body can be written for an API or version the broker does not know; the error code
    // alone follows the header, and the connection stays open (docs/kafka.md, "Errors").
    spdlog::debug("Kafka: unsupported API {} version {} from client {}",
                  static_cast<int>(h.api_key), h.api_version, h.client_id.value_or(""));
    std::string frame;
    Writer writer(&frame);
    const size_t size = writer.ReserveInt32();
    writer.Int32(h.correlation_id);
    writer.Int16(static_cast<int16_t>(ErrorCode::kUnsupportedVersion));
    writer.FillSizeSince(size);
    return done(KafkaReply{std::move(frame)});
  }
  switch (h.api_key) {
    case ApiKey::kMetadata: return done(Metadata(h, reader));
    case ApiKey::kProduce: return Produce(h, reader, body, std::move(done));
    case ApiKey::kFetch: return Fetch(h, reader, body, executor, std::move(done));
    case ApiKey::kListOffsets: return done(ListOffsets(h, reader));
    case ApiKey::kFindCoordinator: return done(FindCoordinator(h, reader));
    case ApiKey::kJoinGroup: return JoinGroup(h, reader, std::move(done));
    case ApiKey::kSyncGroup: return SyncGroup(h, reader, std::move(done));
    case ApiKey::kHeartbeat: return done(Heartbeat(h, reader));
    case ApiKey::kLeaveGroup: return done(LeaveGroup(h, reader));
    case ApiKey::kOffsetCommit: return OffsetCommit(h, reader, std::move(done));
    case ApiKey::kOffsetFetch: return done(OffsetFetch(h, reader));
    case ApiKey::kDescribeGroups: return done(DescribeGroups(h, reader));
    case ApiKey::kListGroups: return done(ListGroups(h, reader));
    case ApiKey::kInitProducerId: return done(InitProducerId(h, reader));
    case ApiKey::kDescribeConfigs: return done(DescribeConfigs(h, reader));
    case ApiKey::kCreateTopics: return done(CreateTopics(h, reader));
    default:
      return done(CloseWith("API " + std::to_string(static_cast<int>(h.api_key)) +
                            " is advertised but has no handler"));
  }
}

KafkaReply KafkaHandler::ApiVersions(const RequestHeader& header, Reader& reader) const {
  const int16_t version = ApiVersionsResponseVersion(header.api_version);
  ApiVersionsResponse response;
  if (!IsSupported(ApiKey::kApiVersions, header.api_version)) {
    // KIP-511: a newer client learns our ranges from a v0 answer and asks again.
    response = UnsupportedApiVersionsResponse();
  } else if (auto request = DecodeApiVersionsRequest(reader, header.api_version); !request.ok()) {
    response = SupportedApiVersionsResponse();
    response.error_code = ErrorCode::kInvalidRequest;
  } else {
    response = SupportedApiVersionsResponse();
  }
  RequestHeader answered = header;
  answered.api_version = version;
  return KafkaReply{ResponseFrame(
      answered, [&](Writer& writer) { EncodeApiVersionsResponse(response, version, writer); })};
}

KafkaReply KafkaHandler::Metadata(const RequestHeader& header, Reader& reader) const {
  auto request = DecodeMetadataRequest(reader, header.api_version);
  if (!request.ok()) return CloseWith("malformed Metadata request: " + request.status().message());
  MetadataResponse response;
  response.brokers.push_back(
      {options_.node_id, options_.advertised_host, options_.advertised_port, std::nullopt});
  response.cluster_id = options_.cluster_id;
  response.controller_id = options_.node_id;
  auto describe = [&](std::string_view name) {
    MetadataTopic topic;
    topic.name = std::string(name);
    auto logs = api_->DescribeBuckets(name);
    if (!logs.ok()) {
      topic.error_code = ErrorCode::kUnknownTopicOrPartition;
    } else {
      for (uint32_t p = 0; p < logs->buckets; ++p) {
        MetadataPartition partition;
        partition.partition_index = static_cast<int32_t>(p);
        partition.leader_id = options_.node_id;
        partition.leader_epoch = 0;
        partition.replica_nodes = {options_.node_id};
        partition.isr_nodes = {options_.node_id};
        topic.partitions.push_back(std::move(partition));
      }
    }
    if (request->include_topic_authorized_operations) topic.topic_authorized_operations = 0;
    response.topics.push_back(std::move(topic));
  };
  if (!request->topics) {
    // Every stream with bucket logs of its own (window streams are views: not topics).
    for (const std::string& name : TopicNames()) describe(name);
  } else {
    for (std::string_view name : *request->topics) describe(name);
  }
  if (request->include_cluster_authorized_operations) response.cluster_authorized_operations = 0;
  return KafkaReply{ResponseFrame(header, [&](Writer& writer) {
    EncodeMetadataResponse(response, header.api_version, writer);
  })};
}

std::vector<std::string> KafkaHandler::TopicNames() const {
  std::vector<std::string> names;
  auto streams = api_->Metadata("");
  if (!streams.ok()) return names;
  for (const broker::StreamInfo& info : *streams) {
    if (info.kind == "window") continue;
    names.push_back(info.name);
  }
  return names;
}

}  // namespace higgins::server::kafka
