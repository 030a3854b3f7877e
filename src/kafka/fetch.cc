#include "kafka/fetch.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {
namespace {

constexpr size_t kMinTopicBytes = 2 + 4;
constexpr size_t kMinPartitionBytes = 4 + 8 + 4;
constexpr size_t kMinPartitionResponseBytes = 4 + 2 + 8 + 8 + 4 + 4;
constexpr size_t kAbortedTransactionBytes = 8 + 8;

FetchPartition DecodePartition(Reader& reader, int16_t version) {
  FetchPartition p;
  p.partition = reader.Int32();
  if (version >= 9) p.current_leader_epoch = reader.Int32();
  p.fetch_offset = reader.Int64();
  if (version >= 5) p.log_start_offset = reader.Int64();
  p.partition_max_bytes = reader.Int32();
  return p;
}

void EncodePartitionResponse(const FetchPartitionResponse& p, int16_t version, Writer& writer) {
  writer.Int32(p.partition_index);
  writer.Int16(static_cast<int16_t>(p.error_code));
  writer.Int64(p.high_watermark);
  writer.Int64(p.last_stable_offset);
  if (version >= 5) writer.Int64(p.log_start_offset);
  if (p.aborted_transactions) {
    writer.ArrayLength(p.aborted_transactions->size());
    for (const AbortedTransaction& t : *p.aborted_transactions) {
      writer.Int64(t.producer_id);
      writer.Int64(t.first_offset);
    }
  } else {
    writer.NullArray();
  }
  if (version >= 11) writer.Int32(p.preferred_read_replica);
  writer.Bytes(p.records);
}

FetchPartitionResponse DecodePartitionResponse(Reader& reader, int16_t version) {
  FetchPartitionResponse p;
  p.partition_index = reader.Int32();
  p.error_code = static_cast<ErrorCode>(reader.Int16());
  p.high_watermark = reader.Int64();
  p.last_stable_offset = reader.Int64();
  if (version >= 5) p.log_start_offset = reader.Int64();
  if (const auto count = reader.NullableArrayLength(kAbortedTransactionBytes)) {
    p.aborted_transactions.emplace(static_cast<size_t>(*count));
    for (AbortedTransaction& t : *p.aborted_transactions) {
      t.producer_id = reader.Int64();
      t.first_offset = reader.Int64();
    }
  }
  if (version >= 11) p.preferred_read_replica = reader.Int32();
  p.records = reader.NullableBytes().value_or(std::string_view());
  return p;
}

}  // namespace

Result<FetchRequest> DecodeFetchRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kFetch, version));
  FetchRequest request;
  request.replica_id = reader.Int32();
  request.max_wait_ms = reader.Int32();
  request.min_bytes = reader.Int32();
  request.max_bytes = reader.Int32();
  request.isolation_level = reader.Int8();
  if (version >= 7) {
    request.session_id = reader.Int32();
    request.session_epoch = reader.Int32();
  }
  const int32_t topics = reader.ArrayLength(kMinTopicBytes);
  request.topics.reserve(topics);
  for (int32_t i = 0; i < topics && reader.ok(); ++i) {
    FetchTopic& topic = request.topics.emplace_back();
    topic.topic = reader.String();
    const int32_t partitions = reader.ArrayLength(kMinPartitionBytes);
    topic.partitions.reserve(partitions);
    for (int32_t j = 0; j < partitions && reader.ok(); ++j) {
      topic.partitions.push_back(DecodePartition(reader, version));
    }
  }
  if (version >= 7) {
    const int32_t forgotten = reader.ArrayLength(kMinTopicBytes);
    request.forgotten_topics_data.reserve(forgotten);
    for (int32_t i = 0; i < forgotten && reader.ok(); ++i) {
      ForgottenTopic& topic = request.forgotten_topics_data.emplace_back();
      topic.topic = reader.String();
      topic.partitions = internal::ReadInt32Array(reader);
    }
  }
  if (version >= 11) request.rack_id = reader.String();
  HIGGINS_RETURN_IF_ERROR(reader.Finish("Fetch request"));
  return request;
}

void EncodeFetchRequest(const FetchRequest& request, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kFetch, version);
  writer.Int32(request.replica_id);
  writer.Int32(request.max_wait_ms);
  writer.Int32(request.min_bytes);
  writer.Int32(request.max_bytes);
  writer.Int8(request.isolation_level);
  if (version >= 7) {
    writer.Int32(request.session_id);
    writer.Int32(request.session_epoch);
  }
  writer.ArrayLength(request.topics.size());
  for (const FetchTopic& topic : request.topics) {
    writer.String(topic.topic);
    writer.ArrayLength(topic.partitions.size());
    for (const FetchPartition& p : topic.partitions) {
      writer.Int32(p.partition);
      if (version >= 9) writer.Int32(p.current_leader_epoch);
      writer.Int64(p.fetch_offset);
      if (version >= 5) writer.Int64(p.log_start_offset);
      writer.Int32(p.partition_max_bytes);
    }
  }
  if (version >= 7) {
    writer.ArrayLength(request.forgotten_topics_data.size());
    for (const ForgottenTopic& topic : request.forgotten_topics_data) {
      writer.String(topic.topic);
      internal::WriteInt32Array(topic.partitions, writer);
    }
  }
  if (version >= 11) writer.String(request.rack_id);
}

void EncodeFetchResponse(const FetchResponse& response, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kFetch, version);
  writer.Int32(response.throttle_time_ms);
  if (version >= 7) {
    writer.Int16(static_cast<int16_t>(response.error_code));
    writer.Int32(response.session_id);
  }
  writer.ArrayLength(response.responses.size());
  for (const FetchTopicResponse& topic : response.responses) {
    writer.String(topic.topic);
    writer.ArrayLength(topic.partitions.size());
    for (const FetchPartitionResponse& p : topic.partitions) {
      EncodePartitionResponse(p, version, writer);
    }
  }
}

Result<FetchResponse> DecodeFetchResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kFetch, version));
  FetchResponse response;
  response.throttle_time_ms = reader.Int32();
  if (version >= 7) {
    response.error_code = static_cast<ErrorCode>(reader.Int16());
    response.session_id = reader.Int32();
  }
  const int32_t topics = reader.ArrayLength(kMinTopicBytes);
  for (int32_t i = 0; i < topics && reader.ok(); ++i) {
    FetchTopicResponse& topic = response.responses.emplace_back();
    topic.topic = reader.String();
    const int32_t partitions = reader.ArrayLength(kMinPartitionResponseBytes);
    for (int32_t j = 0; j < partitions && reader.ok(); ++j) {
      topic.partitions.push_back(DecodePartitionResponse(reader, version));
    }
  }
  HIGGINS_RETURN_IF_ERROR(reader.Finish("Fetch response"));
  return response;
}

}  // namespace higgins::kafka
