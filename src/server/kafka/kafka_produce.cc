// Produce (docs/kafka.md, "Produce"): the record batches of each partition are decoded, their
// values (JSON objects, or Arrow IPC streams or files) produced to the stream, and each partition
// answered with the offset its first record got in the bucket log.
#include <spdlog/spdlog.h>

#include <limits>
#include <mutex>

#include "kafka/produce.h"
#include "kafka/record_batch.h"
#include "server/kafka/kafka_handler.h"
#include "server/kafka/kafka_requests.h"
#include "stream/partitioning.h"

namespace higgins::server::kafka {

using namespace higgins::kafka;  // NOLINT(google-build-using-namespace): the codec's names

namespace {

/// What the partitions of one produce request share until the last one is answered.
struct ProduceState {
  RequestHeader header;
  bool respond = true;  // false for acks = 0
  ProduceResponse response;
  std::mutex mu;
  size_t pending = 0;
  KafkaHandler::Done done;
  std::shared_ptr<const std::string> body;  // the views of the request point into it

  void FinishOne() {
    {
      std::lock_guard lock(mu);
      if (--pending != 0) return;
    }
    if (!respond) return done(KafkaReply{});
    done(KafkaReply{ResponseFrame(header, [&](Writer& writer) {
      EncodeProduceResponse(response, header.api_version, writer);
    })});
  }
};

ErrorCode BatchError(const Status& status) {
  switch (status.code()) {
    case StatusCode::kNotSupported: return ErrorCode::kUnsupportedForMessageFormat;
    case StatusCode::kResourceExhausted: return ErrorCode::kMessageTooLarge;
    default: return ErrorCode::kCorruptMessage;
  }
}

/// The values of one partition's batches, checked: every one non-null, and all JSON objects or
/// all Arrow IPC. Sets `*arrow`.
Result<std::vector<std::string_view>> RecordValues(const std::vector<RecordBatch>& batches,
                                                   bool* arrow) {
  std::vector<std::string_view> values;
  for (const RecordBatch& batch : batches) {
    if (batch.is_control() || batch.is_transactional()) {
      return Status::InvalidArgument("transactional batches are not supported");
    }
    for (const Record& record : batch.records) {
      if (!record.value) {
        return Status::InvalidArgument("record " + std::to_string(values.size()) +
                                       " has a null value");
      }
      const bool is_arrow = LooksLikeArrowIpc(*record.value);
      if (values.empty()) *arrow = is_arrow;
      if (is_arrow != *arrow) {
        return Status::InvalidArgument("record " + std::to_string(values.size()) +
                                       " mixes Arrow IPC and JSON values in one produce");
      }
      if (!is_arrow && !IsOneJsonObject(*record.value)) {
        return Status::InvalidArgument("record " + std::to_string(values.size()) +
                                       ": the value is neither one JSON object nor Arrow IPC");
      }
      values.push_back(*record.value);
    }
  }
  if (values.empty()) return Status::InvalidArgument("no records");
  return values;
}

/// The producer of `batches` when it is idempotent (a producer id of 0 or more), with the
/// sequences of all their records; nullopt for a plain producer. Errors: InvalidArgument when
/// the batches mix producers or epochs, or their sequences do not follow one another.
Result<std::optional<ProducerBatch>> IdempotentBatch(const std::vector<RecordBatch>& batches) {
  if (batches.empty() || batches.front().producer_id < 0) {
    return std::optional<ProducerBatch>();
  }
  const RecordBatch& first = batches.front();
  int64_t records = 0;
  for (const RecordBatch& batch : batches) {
    if (batch.producer_id != first.producer_id || batch.producer_epoch != first.producer_epoch) {
      return Status::InvalidArgument(
          "the record batches of one partition have different producers");
    }
    const ProducerBatch expected =
        ProducerBatch::Of(first.producer_id, first.producer_epoch, first.base_sequence,
                          static_cast<int32_t>(records + 1));
    if (batch.base_sequence != expected.last_sequence) {
      return Status::InvalidArgument(
          "the record batches of one partition have gaps in their sequences");
    }
    records += batch.last_offset_delta + 1;
  }
  if (records > std::numeric_limits<int32_t>::max()) {
    return Status::InvalidArgument("too many records for one producer batch");
  }
  return std::optional(ProducerBatch::Of(first.producer_id, first.producer_epoch,
                                         first.base_sequence, static_cast<int32_t>(records)));
}

}  // namespace

void KafkaHandler::Produce(const RequestHeader& header, Reader& reader, Body body, Done done) {
  auto request = DecodeProduceRequest(reader, header.api_version);
  if (!request.ok())
    return done(CloseWith("malformed Produce request: " + request.status().message()));
  auto state = std::make_shared<ProduceState>();
  state->header = header;
  state->respond = request->acks != 0;
  state->done = std::move(done);
  state->body = std::move(body);
  // Answers are pre-sized, so each partition writes its own entry while the others run.
  for (const ProduceTopicData& topic : request->topics) {
    ProduceTopicResponse& out = state->response.topics.emplace_back();
    out.name = std::string(topic.name);
    for (const ProducePartitionData& partition : topic.partitions) {
      out.partitions.push_back({.index = partition.index});
      ++state->pending;
    }
  }
  if (state->pending == 0) {
    state->pending = 1;
    return state->FinishOne();
  }
  for (size_t t = 0; t < request->topics.size(); ++t) {
    const ProduceTopicData& topic = request->topics[t];
    for (size_t p = 0; p < topic.partitions.size(); ++p) {
      ProducePartitionResponse* out = &state->response.topics[t].partitions[p];
      if (request->transactional_id) {
        out->error_code = ErrorCode::kTransactionalIdAuthorizationFailed;
        state->FinishOne();
        continue;
      }
      ProducePartition(topic.name, topic.partitions[p], out, [state] { state->FinishOne(); });
    }
  }
}

void KafkaHandler::ProducePartition(std::string_view stream, const ProducePartitionData& partition,
                                    ProducePartitionResponse* out, std::function<void()> finish) {
  auto fail = [&](ErrorCode code, const Status& why) {
    spdlog::debug("Kafka produce to {} partition {}: {}", stream, partition.index, why.ToString());
    out->error_code = code;
    finish();
  };
  auto logs = api_->DescribeBuckets(stream);
  if (!logs.ok()) return fail(ErrorCode::kUnknownTopicOrPartition, logs.status());
  if (partition.index < 0 || static_cast<uint32_t>(partition.index) >= logs->buckets) {
    return fail(ErrorCode::kUnknownTopicOrPartition, Status::NotFound("no such partition"));
  }
  if (!logs->producible) {
    return fail(ErrorCode::kTopicAuthorizationFailed,
                Status::NotSupported("a derived stream is written by the broker only"));
  }
  if (!partition.records) {
    return fail(ErrorCode::kCorruptMessage, Status::Corruption("null records"));
  }
  DecodeLimits limits;
  limits.max_decompressed_bytes = options_.max_produce_bytes;
  auto batches = DecodeRecordBatches(*partition.records, limits);
  if (!batches.ok()) return fail(BatchError(batches.status()), batches.status());
  bool arrow = false;
  auto values = RecordValues(*batches, &arrow);
  if (!values.ok()) return fail(ErrorCode::kInvalidRecord, values.status());

  const uint32_t buckets = logs->buckets;
  const auto index = static_cast<uint32_t>(partition.index);
  auto answer = [out, finish](ErrorCode error, int64_t base_offset) {
    out->error_code = error;
    if (error == ErrorCode::kNone) {
      out->log_start_offset = 0;
      out->base_offset = base_offset;
    }
    finish();
  };
  auto producer = IdempotentBatch(*batches);
  if (!producer.ok()) return fail(ErrorCode::kInvalidRecord, producer.status());
  if (!*producer) return AppendValues(stream, index, buckets, arrow, *values, std::move(answer));

  // An idempotent producer (docs/kafka.md, "Idempotent producers"): a retried batch is answered
  // with the offset it got, not appended twice.
  std::string key = std::string(stream) + '\0' + std::to_string(index);
  const ProducerBatch batch = **producer;
  auto decision = producers_.Begin(key, batch, ProducerStateTable::Clock::now(), answer);
  switch (decision.verdict) {
    case ProducerStateTable::Verdict::kRefused:
      spdlog::debug("Kafka produce to {} partition {}: producer {} epoch {} sequence {}: {}",
                    stream, index, batch.producer_id, batch.epoch, batch.first_sequence,
                    ErrorCodeName(decision.error));
      return answer(decision.error, -1);
    case ProducerStateTable::Verdict::kDuplicate:
      return answer(ErrorCode::kNone, decision.base_offset);
    case ProducerStateTable::Verdict::kWaiting: return;  // `answer` runs when the first one ends
    case ProducerStateTable::Verdict::kAppend: break;
  }
  AppendValues(stream, index, buckets, arrow, *values,
               [this, key = std::move(key), batch, answer](ErrorCode error, int64_t base_offset) {
                 for (auto& waiter : producers_.Finish(key, batch, error, base_offset)) {
                   waiter(error, base_offset);
                 }
                 answer(error, base_offset);
               });
}

void KafkaHandler::AppendValues(std::string_view stream, uint32_t index, uint32_t buckets,
                                bool arrow, const std::vector<std::string_view>& values,
                                std::function<void(ErrorCode, int64_t)> done) {
  auto answered = [this, done = std::move(done), buckets, index,
                   name = std::string(stream)](Result<stream::ProduceResult> result) {
    if (!result.ok()) {
      spdlog::debug("Kafka produce to {}: {}", name, result.status().ToString());
      return done(ErrorFor(result.status()), -1);
    }
    done(ErrorCode::kNone, BaseOffset(name, index, buckets, *result));
  };
  if (!arrow) {
    std::string payload = "[";
    for (size_t i = 0; i < values.size(); ++i) {
      if (i > 0) payload.push_back(',');
      payload.append(values[i]);
    }
    payload.push_back(']');
    return api_->Produce(stream, payload, stream::PayloadFormat::kJson, std::move(answered));
  }
  ProduceArrow(std::string(stream),
               std::make_shared<std::vector<std::string>>(values.begin(), values.end()), 0,
               std::nullopt, std::move(answered));
}

void KafkaHandler::ProduceArrow(std::string stream,
                                std::shared_ptr<std::vector<std::string>> values, size_t next,
                                std::optional<stream::ProduceResult> first,
                                std::function<void(Result<stream::ProduceResult>)> done) {
  // One value after the other, each committed on its own (docs/kafka.md says so): the first
  // value's result gives the partition's base offset.
  const std::string& value = (*values)[next];
  api_->Produce(stream, value, stream::PayloadFormat::kArrowIpc,
                [this, stream, values, next, first = std::move(first),
                 done = std::move(done)](Result<stream::ProduceResult> result) mutable {
                  if (!result.ok()) {
                    return done(result.status().WithContext("record " + std::to_string(next) +
                                                            " (Arrow IPC)"));
                  }
                  if (!first) first = *std::move(result);
                  if (next + 1 == values->size()) return done(*std::move(first));
                  ProduceArrow(std::move(stream), std::move(values), next + 1, std::move(first),
                               std::move(done));
                });
}

int64_t KafkaHandler::BaseOffset(const std::string& stream, uint32_t partition, uint32_t buckets,
                                 const stream::ProduceResult& result) const {
  // Records go to their partition key's bucket, whatever partition the client named
  // (docs/kafka.md): the named partition's offset is known only if they all went there.
  for (const std::string& key : result.partitions) {
    if (stream::BucketOf(key, buckets).value() != partition) return -1;
  }
  if (result.offsets.empty() || result.partition_indexes.empty()) return -1;
  auto where =
      api_->Locate(stream, result.partitions[result.partition_indexes[0]], result.offsets[0]);
  if (!where.ok()) return -1;
  return static_cast<int64_t>(where->sequence);
}

}  // namespace higgins::server::kafka
