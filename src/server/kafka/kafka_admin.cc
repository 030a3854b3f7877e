// InitProducerId, DescribeConfigs and CreateTopics (docs/kafka.md, "Idempotent producers" and
// "Topics are declared streams").
#include <spdlog/spdlog.h>

#include "kafka/create_topics.h"
#include "kafka/describe_configs.h"
#include "kafka/init_producer_id.h"
#include "server/kafka/kafka_handler.h"
#include "server/kafka/kafka_requests.h"

namespace higgins::server::kafka {

using namespace higgins::kafka;  // NOLINT(google-build-using-namespace): the codec's names

namespace {

struct Config {
  std::string name;
  std::string value;
  bool is_default;  // Kafka's default (v0 is_default; v1+ source DEFAULT_CONFIG)
};

/// Answers `configs`, those named in `keys` only when it is given (unknown names are left out,
/// as Kafka brokers do), all read-only: AlterConfigs is not served.
std::vector<DescribeConfigsEntry> Entries(const std::vector<Config>& configs,
                                          const std::optional<std::vector<std::string_view>>& keys,
                                          int8_t own_source) {
  std::vector<DescribeConfigsEntry> entries;
  for (const Config& config : configs) {
    if (keys && std::find(keys->begin(), keys->end(), config.name) == keys->end()) continue;
    DescribeConfigsEntry& entry = entries.emplace_back();
    entry.name = config.name;
    entry.value = config.value;
    entry.read_only = true;
    entry.is_default = config.is_default;
    entry.config_source = config.is_default ? kConfigSourceDefaultConfig : own_source;
  }
  return entries;
}

}  // namespace

KafkaReply KafkaHandler::InitProducerId(const RequestHeader& header, Reader& reader) {
  auto request = DecodeInitProducerIdRequest(reader, header.api_version);
  if (!request.ok()) {
    return CloseWith("malformed InitProducerId request: " + request.status().message());
  }
  InitProducerIdResponse response;
  if (request->transactional_id) {
    // Transactions are not served (docs/kafka.md, "Not yet").
    response.error_code = ErrorCode::kTransactionalIdAuthorizationFailed;
  } else if (const int64_t id = producers_.NewProducerId(); id < 0) {
    response.error_code = ErrorCode::kClusterAuthorizationFailed;
  } else {
    response.producer_id = id;
    response.producer_epoch = 0;
  }
  return KafkaReply{ResponseFrame(header, [&](Writer& writer) {
    EncodeInitProducerIdResponse(response, header.api_version, writer);
  })};
}

KafkaReply KafkaHandler::DescribeConfigs(const RequestHeader& header, Reader& reader) const {
  auto request = DecodeDescribeConfigsRequest(reader, header.api_version);
  if (!request.ok()) {
    return CloseWith("malformed DescribeConfigs request: " + request.status().message());
  }
  const std::string max_bytes = std::to_string(options_.max_produce_bytes);
  DescribeConfigsResponse response;
  for (const DescribeConfigsResource& resource : request->resources) {
    DescribeConfigsResult& result = response.results.emplace_back();
    result.resource_type = resource.resource_type;
    result.resource_name = std::string(resource.resource_name);
    if (resource.resource_type == kResourceTypeTopic) {
      auto streams = api_->Metadata(resource.resource_name);
      auto logs = api_->DescribeBuckets(resource.resource_name);
      if (!streams.ok() || streams->empty() || !logs.ok()) {
        result.error_code = ErrorCode::kUnknownTopicOrPartition;
        result.error_message = "no stream named " + result.resource_name + " has partitions";
        continue;
      }
      const broker::StreamInfo& info = streams->front();
      std::vector<Config> configs = {
          {"cleanup.policy", "delete", true},
          {"compression.type", "producer", true},
          {"max.message.bytes", max_bytes, false},
          {"message.timestamp.type", "LogAppendTime", false},
          {"min.insync.replicas", "1", true},
          {"retention.bytes", "-1", false},
          {"retention.ms", "-1", false},
          {"higgins.kind", info.kind, false},
          {"higgins.partition.key", info.decl.partition_key, false},
          {"higgins.partitions", std::to_string(logs->buckets), false},
          {"higgins.schema", info.decl.schema, false},
          {"higgins.storage", info.decl.storage, false},
      };
      if (!info.decl.base.empty()) configs.push_back({"higgins.base", info.decl.base, false});
      result.configs = Entries(configs, resource.configuration_keys, kConfigSourceTopicConfig);
    } else if (resource.resource_type == kResourceTypeBroker) {
      if (!resource.resource_name.empty() &&
          resource.resource_name != std::to_string(options_.node_id)) {
        result.error_code = ErrorCode::kInvalidRequest;
        result.error_message = "this broker is node " + std::to_string(options_.node_id);
        continue;
      }
      const std::vector<Config> configs = {
          {"advertised.listeners",
           "PLAINTEXT://" + options_.advertised_host + ":" +
               std::to_string(options_.advertised_port),
           false},
          {"auto.create.topics.enable", "false", false},
          {"broker.id", std::to_string(options_.node_id), false},
          {"log.message.timestamp.type", "LogAppendTime", false},
          {"message.max.bytes", max_bytes, false},
          {"offsets.topic.replication.factor", "1", false},
          {"transaction.state.log.replication.factor", "1", false},
      };
      result.configs =
          Entries(configs, resource.configuration_keys, kConfigSourceStaticBrokerConfig);
    } else {
      result.error_code = ErrorCode::kInvalidRequest;
      result.error_message = "Higgins describes topic (2) and broker (4) resources only";
    }
  }
  return KafkaReply{ResponseFrame(header, [&](Writer& writer) {
    EncodeDescribeConfigsResponse(response, header.api_version, writer);
  })};
}

KafkaReply KafkaHandler::CreateTopics(const RequestHeader& header, Reader& reader) const {
  auto request = DecodeCreateTopicsRequest(reader, header.api_version);
  if (!request.ok()) {
    return CloseWith("malformed CreateTopics request: " + request.status().message());
  }
  // A topic is a stream, and a stream is declared with its schema in a configuration
  // (docs/kafka.md, "Topics are declared streams"): CreateTopics creates nothing.
  CreateTopicsResponse response;
  for (const CreateTopicsTopic& topic : request->topics) {
    CreateTopicsTopicResult& result = response.topics.emplace_back();
    result.name = std::string(topic.name);
    if (api_->DescribeBuckets(topic.name).ok()) {
      result.error_code = ErrorCode::kTopicAlreadyExists;
      result.error_message = "stream " + result.name + " exists";
    } else {
      result.error_code = ErrorCode::kPolicyViolation;
      result.error_message =
          "Higgins topics are streams declared with a schema in a configuration; declare "
          "stream " +
          result.name + " with higgins-cli create-configuration (docs/kafka.md)";
    }
  }
  return KafkaReply{ResponseFrame(header, [&](Writer& writer) {
    EncodeCreateTopicsResponse(response, header.api_version, writer);
  })};
}

}  // namespace higgins::server::kafka
