#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "broker/broker_api.h"
#include "kafka/fetch.h"
#include "kafka/produce.h"
#include "kafka/request_header.h"
#include "kafka/wire.h"
#include "server/asio.h"
#include "server/kafka/group_coordinator.h"
#include "server/kafka/offset_committer.h"
#include "server/kafka/offset_store.h"
#include "server/kafka/producer_ids.h"
#include "server/kafka/producer_state.h"

namespace higgins::server::kafka {

/// How fetched records' values are written (docs/kafka.md, "Values as Arrow").
enum class ValueFormat : uint8_t {
  kJson,   // one Kafka record per row, its value the row as a JSON object
  kArrow,  // one Kafka record per run of rows, its value their Arrow IPC stream
};

/// The format a client asks for: kArrow when its client id holds `higgins.value=arrow`
/// (e.g. `client.id=dashboard;higgins.value=arrow`), else kJson.
ValueFormat ValueFormatFor(std::optional<std::string_view> client_id);

/// What a KafkaSession writes back for one request.
struct KafkaReply {
  /// The response frame: 4-byte size, response header, body. Empty: no response (a produce
  /// with acks=0, to which Kafka brokers send nothing).
  std::string frame;
  /// Close the connection after writing `frame`: the request could not be parsed far enough to
  /// answer it (docs/kafka.md, "Errors").
  bool close = false;
  std::string close_reason;
};

struct KafkaHandlerOptions {
  /// What Metadata tells clients to connect to: this listener's host and port.
  std::string advertised_host = "127.0.0.1";
  uint16_t advertised_port = 9092;
  int32_t node_id = 0;
  std::string cluster_id = "higgins";
  /// Fetch long polls wait at most this long, whatever the client asks (ms).
  int32_t max_fetch_wait_ms = 30'000;
  /// Bytes of decompressed record batches one produce request may carry.
  size_t max_produce_bytes = size_t{64} << 20;
  /// The producer ids InitProducerId gives out (ClaimProducerIds); empty: it answers
  /// CLUSTER_AUTHORIZATION_FAILED, and idempotent produces from earlier processes are refused.
  ProducerIdRange producer_ids;
  /// Idempotent producers' sequence state kept (docs/kafka.md, "Idempotent producers").
  ProducerStateTable::Options producer_state;
};

/// The Kafka protocol over the broker API (docs/kafka.md): parses one request frame body,
/// runs it against the broker and makes the response frame. Sans socket: the session feeds it
/// bodies and writes what it answers. Thread-safe; `done` runs exactly once, on any thread.
class KafkaHandler {
 public:
  using Done = std::function<void(KafkaReply)>;

  /// `offsets` keeps consumer groups' committed offsets (it outlives the handler); null: no
  /// group coordinator (FindCoordinator answers COORDINATOR_NOT_AVAILABLE).
  KafkaHandler(broker::BrokerApi* api, KafkaHandlerOptions options, OffsetStore* offsets = nullptr);
  ~KafkaHandler();  // stores the offset commits already queued

  /// Answers `request` (a frame body without its size). `executor` runs the timers of a
  /// long-polling fetch (the session's strand).
  void Handle(std::string request, const asio::any_io_executor& executor, Done done);
  /// Expires group members' sessions and rebalance timeouts, and idempotent producers' state:
  /// the listener calls it every 100 ms, from one thread.
  void Tick();

 private:
  using RequestHeader = higgins::kafka::RequestHeader;
  using Body = std::shared_ptr<const std::string>;  // the request, which decoded views point into
  KafkaReply ApiVersions(const RequestHeader& header, higgins::kafka::Reader& reader) const;
  KafkaReply Metadata(const RequestHeader& header, higgins::kafka::Reader& reader) const;
  void Produce(const RequestHeader& header, higgins::kafka::Reader& reader, Body body, Done done);
  void ProducePartition(std::string_view stream,
                        const higgins::kafka::ProducePartitionData& partition,
                        higgins::kafka::ProducePartitionResponse* out,
                        std::function<void()> finish);
  void ProduceArrow(std::string stream, std::shared_ptr<std::vector<std::string>> values,
                    size_t next, std::optional<stream::ProduceResult> first,
                    std::function<void(Result<stream::ProduceResult>)> done);
  /// The bucket sequence of a produce's first record, or -1 unless every record went to
  /// `partition`.
  int64_t BaseOffset(const std::string& stream, uint32_t partition, uint32_t buckets,
                     const stream::ProduceResult& result) const;
  void Fetch(const RequestHeader& header, higgins::kafka::Reader& reader, Body body,
             const asio::any_io_executor& executor, Done done);
  /// One round of a fetch (kafka_fetch.cc's FetchState): answers, or polls again.
  void FetchOnce(const std::shared_ptr<void>& state);
  /// How ReadPartition reads: up to `max_bytes` (more for the response's `first` batch), with
  /// values in `format`.
  struct PartitionRead {
    size_t max_bytes = 0;
    bool first = false;
    ValueFormat format = ValueFormat::kJson;
  };
  /// Record batches of one partition from its fetch offset.
  void ReadPartition(std::string_view stream, const higgins::kafka::FetchPartition& partition,
                     const PartitionRead& how, higgins::kafka::FetchPartitionResponse* out,
                     std::string* buffer) const;
  KafkaReply ListOffsets(const RequestHeader& header, higgins::kafka::Reader& reader) const;
  KafkaReply FindCoordinator(const RequestHeader& header, higgins::kafka::Reader& reader) const;
  void JoinGroup(const RequestHeader& header, higgins::kafka::Reader& reader, Done done);
  void SyncGroup(const RequestHeader& header, higgins::kafka::Reader& reader, Done done);
  KafkaReply Heartbeat(const RequestHeader& header, higgins::kafka::Reader& reader);
  KafkaReply LeaveGroup(const RequestHeader& header, higgins::kafka::Reader& reader);
  void OffsetCommit(const RequestHeader& header, higgins::kafka::Reader& reader, Done done);
  KafkaReply OffsetFetch(const RequestHeader& header, higgins::kafka::Reader& reader) const;
  KafkaReply DescribeGroups(const RequestHeader& header, higgins::kafka::Reader& reader) const;
  KafkaReply ListGroups(const RequestHeader& header, higgins::kafka::Reader& reader) const;
  KafkaReply InitProducerId(const RequestHeader& header, higgins::kafka::Reader& reader);
  KafkaReply DescribeConfigs(const RequestHeader& header, higgins::kafka::Reader& reader) const;
  KafkaReply CreateTopics(const RequestHeader& header, higgins::kafka::Reader& reader) const;
  /// Appends one partition's values to `stream` (JSON objects as one payload, Arrow IPC one
  /// value after the other), then answers the partition's base offset.
  void AppendValues(std::string_view stream, uint32_t index, uint32_t buckets, bool arrow,
                    const std::vector<std::string_view>& values,
                    std::function<void(higgins::kafka::ErrorCode, int64_t)> done);
  /// Every stream that is a topic: those with bucket logs of their own (not window streams).
  std::vector<std::string> TopicNames() const;

  broker::BrokerApi* api_;
  KafkaHandlerOptions options_;
  OffsetStore* offsets_;
  std::unique_ptr<OffsetCommitter> committer_;  // stores offsets_'s commits; null without
  GroupCoordinator coordinator_{GroupCoordinator::Options{}};
  ProducerStateTable producers_;
  ProducerStateTable::Clock::time_point next_producer_expiry_;  // Tick's, one thread
};

}  // namespace higgins::server::kafka
