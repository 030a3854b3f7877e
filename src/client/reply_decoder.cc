#include "client/reply_decoder.h"

#include <memory>
#include <span>
#include <utility>
#include <string_view>

#include "higgins/arrow/ipc/reader.h"
#include "higgins/buffer.h"
#include "protocol/messages.h"
#include "protocol/partition_name.h"

namespace higgins::client_internal {

namespace wire = higgins::wire;

namespace {

std::string JoinLines(const google::protobuf::RepeatedPtrField<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) {
    if (!out.empty()) out += '\n';
    out += line;
  }
  return out;
}

// The failure of an operation: `code` (kOk: the reply has no code field, so an unknown
// category, Internal) and `text` (or a stand-in when the broker gave none).
Status Failure(wire::ErrorCode code, std::string text) {
  const StatusCode status_code =
      code == wire::OK ? StatusCode::kInternal : protocol::FromErrorCode(code);
  if (text.empty()) {
    text = "the broker reported " + wire::ErrorCode_Name(code) + " without a reason";
  }
  return Status(status_code, std::move(text));
}

// The bytes of `field` as a Buffer that owns them (moved, not copied).
Buffer TakeBytes(std::string* field) {
  auto owner = std::make_shared<std::string>(std::move(*field));
  return Buffer(reinterpret_cast<const uint8_t*>(owner->data()), owner->size(), owner);
}

Result<arrow::RecordBatch> DecodeRecordData(std::string* data) {
  auto read = arrow::ipc::ReadStream(TakeBytes(data));
  if (!read.ok()) return Status::Corruption("record data: " + read.status().ToString());
  auto batch = arrow::ConcatenateBatches(read->schema, read->batches);
  if (!batch.ok()) return Status::Corruption("record data: " + batch.status().ToString());
  return batch;
}

Result<StreamInfo> DecodeStream(wire::StreamMetadata* stream) {
  StreamInfo info;
  info.name = stream->name();
  info.kind = stream->kind();
  info.schema_name = stream->schema();
  info.partition_key = stream->partition_key();
  info.storage = stream->storage();
  info.buckets = stream->buckets();
  info.partition_count = stream->partition_count();
  info.record_count = stream->record_count();
  info.partitions.reserve(static_cast<size_t>(stream->partitions_size()));
  for (const auto& partition : stream->partitions()) {
    info.partitions.push_back({partition.key(), partition.count()});
  }
  info.partitions_truncated = stream->partitions_truncated();
  auto schema = arrow::ipc::ReadStream(TakeBytes(stream->mutable_arrow_schema()));
  if (!schema.ok()) {
    return Status::Corruption("stream '" + info.name +
                              "': arrow_schema: " + schema.status().ToString());
  }
  info.schema = std::move(schema->schema);
  info.lag = stream->lag();
  return info;
}

}  // namespace

Status ErrorStatus(const wire::Error& error) {
  StatusCode code = StatusCode::kInternal;
  switch (error.type()) {
    case wire::Error::UNIMPLEMENTED: code = StatusCode::kNotSupported; break;
    case wire::Error::MALFORMED_MESSAGE: code = StatusCode::kInvalidArgument; break;
    case wire::Error::FRAME_TOO_LARGE:
    case wire::Error::OVERLOADED: code = StatusCode::kResourceExhausted; break;
    case wire::Error::TRUNCATED_FRAME: code = StatusCode::kCorruption; break;
    default: break;
  }
  std::string text = error.message();
  if (text.empty()) text = "the broker answered " + wire::Error::Type_Name(error.type());
  return Status(code, std::move(text));
}

Status CheckReplyType(const wire::Message& reply, wire::Message::Type expected) {
  if (reply.type() == expected) return Status::OK();
  if (reply.type() == wire::Message::ERROR) return ErrorStatus(reply.error());
  return Status::Corruption(std::string("expected a ") + protocol::MessageTypeName(expected) +
                            " reply, got " + protocol::MessageTypeName(reply.type()));
}

Status OperationStatus(wire::ErrorCode code, std::string text) {
  if (code == wire::OK && text.empty()) return Status::OK();
  return Failure(code, std::move(text));
}

Status OperationStatus(wire::ErrorCode code,
                       const google::protobuf::RepeatedPtrField<std::string>& errors) {
  if (code == wire::OK && errors.empty()) return Status::OK();
  return Failure(code, JoinLines(errors));
}

Status DecodeStatusReply(const wire::Message& reply, wire::Message::Type expected) {
  HIGGINS_RETURN_IF_ERROR(CheckReplyType(reply, expected));
  switch (expected) {
    case wire::Message::CREATECONFIGURATIONRESPONSE: {
      const auto& r = reply.createconfigurationresponse();
      return OperationStatus(r.code(), r.errors());
    }
    case wire::Message::DELETECONFIGURATIONRESPONSE: {
      const auto& r = reply.deleteconfigurationresponse();
      return OperationStatus(r.code(), r.errors());
    }
    case wire::Message::UPLOADMODULERESPONSE: {
      const auto& r = reply.uploadmoduleresponse();
      return OperationStatus(r.code(), r.errors());
    }
    case wire::Message::DELETESUBSCRIPTIONRESPONSE: {
      const auto& r = reply.deletesubscriptionresponse();
      return OperationStatus(r.code(), r.errors());
    }
    default:
      return Status::Internal(std::string("no status decoder for ") +
                              protocol::MessageTypeName(expected));
  }
}

Result<std::string> DecodePong(wire::Message reply) {
  HIGGINS_RETURN_IF_ERROR(CheckReplyType(reply, wire::Message::PONG));
  return std::move(*reply.mutable_pong()->mutable_data());
}

Result<std::string> DecodeTopography(wire::Message reply) {
  HIGGINS_RETURN_IF_ERROR(CheckReplyType(reply, wire::Message::GETCURRENTTOPOGRAPHYRESPONSE));
  auto* r = reply.mutable_getcurrenttopographyresponse();
  HIGGINS_RETURN_IF_ERROR(OperationStatus(wire::OK, r->errors()));
  return std::move(*r->mutable_toml());
}

Result<std::vector<CatchUp>> DecodeCreateConfiguration(const wire::Message& reply) {
  HIGGINS_RETURN_IF_ERROR(DecodeStatusReply(reply, wire::Message::CREATECONFIGURATIONRESPONSE));
  std::vector<CatchUp> out;
  for (const wire::CatchUp& c : reply.createconfigurationresponse().catch_ups()) {
    out.push_back({c.stream(), c.records()});
  }
  return out;
}

Result<uint64_t> DecodeUploadModule(const wire::Message& reply) {
  HIGGINS_RETURN_IF_ERROR(DecodeStatusReply(reply, wire::Message::UPLOADMODULERESPONSE));
  return reply.uploadmoduleresponse().version();
}

Result<ProduceResult> DecodeProduce(wire::Message reply) {
  HIGGINS_RETURN_IF_ERROR(CheckReplyType(reply, wire::Message::PRODUCERESPONSE));
  auto* r = reply.mutable_produceresponse();
  HIGGINS_RETURN_IF_ERROR(OperationStatus(r->code(), r->errors()));
  if (r->partition_indexes_size() != r->offsets_size()) {
    return Status::Corruption("produce reply lists " + std::to_string(r->offsets_size()) +
                              " offsets but " + std::to_string(r->partition_indexes_size()) +
                              " partition indexes");
  }
  ProduceResult out;
  out.partitions.reserve(static_cast<size_t>(r->partitions_size()));
  for (auto& key : *r->mutable_partitions()) out.partitions.push_back(std::move(key));
  for (int i = 0; i < r->partition_indexes_size(); ++i) {
    if (r->partition_indexes(i) >= out.partitions.size()) {
      return Status::Corruption("produce reply: row " + std::to_string(i) +
                                " has partition index " + std::to_string(r->partition_indexes(i)) +
                                " of " + std::to_string(out.partitions.size()) + " partitions");
    }
  }
  out.partition_indexes.assign(r->partition_indexes().begin(), r->partition_indexes().end());
  out.offsets.assign(r->offsets().begin(), r->offsets().end());
  out.timestamp_ms = r->timestamp();
  return out;
}

Result<Records> DecodeRecords(wire::Message reply) {
  HIGGINS_RETURN_IF_ERROR(CheckReplyType(reply, wire::Message::GETINDEXRESPONSE));
  auto* r = reply.mutable_getindexresponse();
  if (Status s = OperationStatus(r->code(), r->errors()); !s.ok()) {
    // The broker numbers the failures of a request's indexes ("index 0: ..."); the client sends
    // one index per query, so the number says nothing.
    constexpr std::string_view kIndex = "index 0: ";
    if (!s.message().starts_with(kIndex)) return s;
    return Status(s.code(), s.message().substr(kIndex.size()));
  }
  if (r->records_size() != 1) {
    return Status::Corruption("query reply holds " + std::to_string(r->records_size()) +
                              " records, expected 1");
  }
  return DecodeRecord(r->mutable_records(0));
}

Result<Records> DecodeRecord(wire::Record* record) {
  Records out;
  out.stream = std::move(*record->mutable_stream());
  auto key = protocol::DecodePartitionName(record->partition());
  if (!key.ok()) return Status::Corruption("record partition: " + key.status().message());
  out.partition_key = *std::move(key);
  out.offset = record->offset();
  out.timestamps_ms.assign(record->timestamps().begin(), record->timestamps().end());
  if (record->has_window()) {
    const wire::WindowBounds& w = record->window();
    out.window = WindowBounds{w.closed(), w.by_time(), w.start(), w.end(), w.first_offset()};
  }
  out.redelivered = record->redelivered();
  HIGGINS_ASSIGN_OR_RETURN(out.batch, DecodeRecordData(record->mutable_data()));
  const auto rows = static_cast<uint64_t>(out.batch.num_rows());
  if (record->count() != 0 && record->count() != rows) {
    return Status::Corruption("record count is " + std::to_string(record->count()) +
                              " but its data holds " + std::to_string(rows) + " rows");
  }
  if (!out.timestamps_ms.empty() && out.timestamps_ms.size() != rows) {
    return Status::Corruption("record has " + std::to_string(out.timestamps_ms.size()) +
                              " timestamps for " + std::to_string(rows) + " rows");
  }
  return out;
}

Result<std::vector<StreamInfo>> DecodeMetadata(wire::Message reply) {
  HIGGINS_RETURN_IF_ERROR(CheckReplyType(reply, wire::Message::METADATARESPONSE));
  auto* r = reply.mutable_metadataresponse();
  HIGGINS_RETURN_IF_ERROR(OperationStatus(r->code(), r->errors()));
  std::vector<StreamInfo> out;
  out.reserve(static_cast<size_t>(r->streams_size()));
  for (auto& stream : *r->mutable_streams()) {
    HIGGINS_ASSIGN_OR_RETURN(StreamInfo info, DecodeStream(&stream));
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace higgins::client_internal
