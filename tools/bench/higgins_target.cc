// The Higgins side of higgins-bench: frames of higgins.wire.Message (docs/protocol.md).
#include <charconv>
#include <deque>

#include "higgins/arrow/array.h"
#include "higgins/arrow/ipc/writer.h"
#include "higgins/arrow/record_batch.h"
#include "codec.h"
#include "protocol/frame.h"
#include "protocol/messages.h"

namespace higgins::bench {
namespace {

/// The configuration --setup uploads: both streams of the comparison, on memory and file
/// storage. Uploading it again is a no-op on the broker.
constexpr std::string_view kSetupToml = R"([storage.mem]
type = "memory"
[storage.disk]
type = "file"
[schema.bench]
id = "string"
seq = "int64"
payload = "string"
[streams.bench_mem]
schema = "bench"
partition_key = "id"
storage = "mem"
[streams.bench_file]
schema = "bench"
partition_key = "id"
storage = "disk"
)";

constexpr uint32_t kMaxFrameBytes = protocol::kDefaultMaxFrameBytes;

/// The first error a reply carries, or "" when it reports success.
std::string ReplyError(const wire::Message& reply, wire::Message::Type expected) {
  if (reply.type() == wire::Message::ERROR) {
    return "Error " + wire::Error::Type_Name(reply.error().type()) + ": " + reply.error().message();
  }
  if (reply.type() != expected) {
    return std::string("unexpected reply ") + protocol::MessageTypeName(reply.type());
  }
  auto first = [](const auto& errors) { return errors.empty() ? std::string() : errors[0]; };
  switch (expected) {
    case wire::Message::PRODUCERESPONSE: return first(reply.produceresponse().errors());
    case wire::Message::GETINDEXRESPONSE: return first(reply.getindexresponse().errors());
    case wire::Message::CREATECONFIGURATIONRESPONSE:
      return first(reply.createconfigurationresponse().errors());
    case wire::Message::DELETECONFIGURATIONRESPONSE:
      return first(reply.deleteconfigurationresponse().errors());
    case wire::Message::METADATARESPONSE: return first(reply.metadataresponse().errors());
    default: return "";
  }
}

class HigginsCodec final : public Codec {
 public:
  HigginsCodec(std::shared_ptr<const WorkloadShape> shape, bool collect)
      : shape_(std::move(shape)),
        collect_(collect),
        schema_(arrow::MakeSchema({{"id", arrow::DataType::Utf8()},
                                   {"seq", arrow::DataType::Int64()},
                                   {"payload", arrow::DataType::Utf8()}})) {
    produce_.set_type(wire::Message::PRODUCEREQUEST);
    produce_.mutable_producerequest()->set_stream_name(shape_->stream);
    produce_.mutable_producerequest()->set_format(shape_->arrow ? wire::ARROW_IPC : wire::JSON);
    query_.set_type(wire::Message::GETINDEXREQUEST);
    ping_.set_type(wire::Message::PING);
    ping_.mutable_ping();
  }

  Status Encode(const Batch& batch, std::string* out) override {
    Pending pending{next_id_, batch.rows.size() + batch.queries.size(), Kind::kPing};
    wire::Message* message = &ping_;
    if (!batch.rows.empty()) {
      pending.kind = Kind::kProduce;
      message = &produce_;
      std::string* payload = produce_.mutable_producerequest()->mutable_payload();
      payload->clear();
      if (shape_->arrow) {
        HIGGINS_RETURN_IF_ERROR(EncodeArrow(batch.rows, payload));
      } else {
        for (const Row& row : batch.rows) {
          AppendJsonRow(shape_->keys[row.key], row.seq, shape_->payload, payload);
        }
      }
    } else if (!batch.queries.empty()) {
      pending.kind = Kind::kQuery;
      message = &query_;
      auto* indexes = query_.mutable_getindexrequest()->mutable_indexes();
      while (indexes->size() > static_cast<int>(batch.queries.size())) indexes->RemoveLast();
      while (indexes->size() < static_cast<int>(batch.queries.size())) {
        wire::Index* index = indexes->Add();
        index->set_type(wire::Index::OFFSET);
        index->set_stream(shape_->stream);
      }
      for (size_t i = 0; i < batch.queries.size(); ++i) {
        wire::Index* index = indexes->Mutable(static_cast<int>(i));
        index->set_partition(shape_->keys[batch.queries[i].key]);
        index->set_index(batch.queries[i].position.major);
      }
    }
    message->set_correlationid(next_id_++);
    HIGGINS_RETURN_IF_ERROR(protocol::AppendMessageFrame(*message, kMaxFrameBytes, out));
    pending_.push_back(pending);
    return Status::OK();
  }

  Status Consume(std::string_view bytes, std::vector<Outcome>* done) override {
    Status status =
        decoder_.Consume({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
    while (auto body = decoder_.Next()) {
      if (pending_.empty()) return Status::Corruption("a reply to no request");
      const Pending request = pending_.front();
      pending_.pop_front();
      auto reply = protocol::ParseMessage(*body);
      if (!reply.ok()) return reply.status();
      if (reply->correlationid() != request.id) {
        return Status::Corruption("reply " + std::to_string(reply->correlationid()) + " where " +
                                  std::to_string(request.id) + " was expected");
      }
      done->push_back(Decode(*reply, request));
    }
    return status;
  }

 private:
  enum class Kind { kProduce, kQuery, kPing };
  struct Pending {
    uint64_t id;
    size_t records;
    Kind kind;
  };

  Status EncodeArrow(const std::vector<Row>& rows, std::string* out) {
    arrow::ArrayBuilder ids(arrow::DataType::Utf8());
    arrow::ArrayBuilder seqs(arrow::DataType::Int64());
    arrow::ArrayBuilder payloads(arrow::DataType::Utf8());
    for (const Row& row : rows) {
      HIGGINS_RETURN_IF_ERROR(ids.AppendBinary(shape_->keys[row.key]));
      seqs.AppendPrimitive<int64_t>(static_cast<int64_t>(row.seq));
      HIGGINS_RETURN_IF_ERROR(payloads.AppendBinary(shape_->payload));
    }
    HIGGINS_ASSIGN_OR_RETURN(
        arrow::RecordBatch batch,
        arrow::RecordBatch::Make(schema_, static_cast<int64_t>(rows.size()),
                                 {ids.Finish(), seqs.Finish(), payloads.Finish()}));
    HIGGINS_ASSIGN_OR_RETURN(Buffer bytes, arrow::ipc::WriteStream(schema_, {batch}));
    out->assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    return Status::OK();
  }

  Outcome Decode(const wire::Message& reply, const Pending& request) const {
    Outcome outcome;
    const bool query = request.kind == Kind::kQuery;
    const auto expected = request.kind == Kind::kPing ? wire::Message::PONG
                          : query                     ? wire::Message::GETINDEXRESPONSE
                                                      : wire::Message::PRODUCERESPONSE;
    outcome.error = ReplyError(reply, expected);
    if (outcome.error.empty() && query &&
        static_cast<size_t>(reply.getindexresponse().records_size()) != request.records) {
      outcome.error = "GetIndex returned " +
                      std::to_string(reply.getindexresponse().records_size()) + " records for " +
                      std::to_string(request.records) + " indexes";
    }
    if (outcome.error.empty() && request.kind == Kind::kProduce) {
      const auto& produced = reply.produceresponse();
      if (static_cast<size_t>(produced.offsets_size()) != request.records ||
          produced.partition_indexes_size() != produced.offsets_size()) {
        outcome.error = "Produce returned " + std::to_string(produced.offsets_size()) +
                        " offsets for " + std::to_string(request.records) + " rows";
      } else if (collect_) {
        std::vector<uint32_t> keys;
        for (const std::string& key : produced.partitions()) {
          keys.push_back(ParseKeyIndex(key).value_or(UINT32_MAX));
        }
        for (int i = 0; i < produced.offsets_size(); ++i) {
          const uint32_t p = produced.partition_indexes(i);
          if (p >= keys.size() || keys[p] == UINT32_MAX) {
            outcome.error = "Produce returned an unknown partition index";
            break;
          }
          outcome.produced.emplace_back(keys[p], Position{produced.offsets(i), 0});
        }
      }
    }
    outcome.ok = outcome.error.empty();
    return outcome;
  }

  std::shared_ptr<const WorkloadShape> shape_;
  bool collect_;
  arrow::SchemaPtr schema_;
  wire::Message produce_;  // reused: only the payload and correlationId change
  wire::Message query_;
  wire::Message ping_;
  uint64_t next_id_ = 1;
  std::deque<Pending> pending_;
  protocol::FrameDecoder decoder_{kMaxFrameBytes};
};

/// Sends one request and waits for its reply on a connection with nothing else in flight.
Result<wire::Message> Call(Socket* socket, wire::Message request) {
  request.set_correlationid(1);
  HIGGINS_ASSIGN_OR_RETURN(std::string frame, protocol::SerializeFrame(request, kMaxFrameBytes));
  HIGGINS_RETURN_IF_ERROR(socket->WriteAll(frame));
  protocol::FrameDecoder decoder(kMaxFrameBytes);
  char buffer[64 * 1024];
  while (true) {
    if (auto body = decoder.Next()) return protocol::ParseMessage(*body);
    HIGGINS_ASSIGN_OR_RETURN(size_t n, socket->Read(buffer, sizeof(buffer)));
    if (n == 0) return Status::IOError("the broker closed the connection");
    HIGGINS_RETURN_IF_ERROR(decoder.Consume({reinterpret_cast<const uint8_t*>(buffer), n}));
  }
}

class HigginsTarget final : public Target {
 public:
  explicit HigginsTarget(std::shared_ptr<const WorkloadShape> shape) : shape_(std::move(shape)) {}

  std::unique_ptr<Codec> NewCodec(bool collect_positions) const override {
    return std::make_unique<HigginsCodec>(shape_, collect_positions);
  }

  Status Prepare(Socket* socket, bool reset, bool setup) const override {
    if (reset) {
      wire::Message request;
      request.set_type(wire::Message::DELETECONFIGURATIONREQUEST);
      request.mutable_deleteconfigurationrequest()->set_key("streams." + shape_->stream);
      HIGGINS_ASSIGN_OR_RETURN(wire::Message reply, Call(socket, request));
      if (std::string e = ReplyError(reply, wire::Message::DELETECONFIGURATIONRESPONSE);
          !e.empty() && reply.deleteconfigurationresponse().code() != wire::NOT_FOUND) {
        return Status::InvalidArgument("reset: " + e);
      }
    }
    if (reset || setup) {
      wire::Message request;
      request.set_type(wire::Message::CREATECONFIGURATIONREQUEST);
      request.mutable_createconfigurationrequest()->set_data(std::string(kSetupToml));
      HIGGINS_ASSIGN_OR_RETURN(wire::Message reply, Call(socket, request));
      if (std::string e = ReplyError(reply, wire::Message::CREATECONFIGURATIONRESPONSE);
          !e.empty()) {
        return Status::InvalidArgument("setup: " + e);
      }
    }
    wire::Message request;
    request.set_type(wire::Message::METADATAREQUEST);
    request.mutable_metadatarequest()->set_name(shape_->stream);
    HIGGINS_ASSIGN_OR_RETURN(wire::Message reply, Call(socket, request));
    if (std::string e = ReplyError(reply, wire::Message::METADATARESPONSE); !e.empty()) {
      return Status::NotFound(e + " (run with --setup to declare it)");
    }
    return Status::OK();
  }

 private:
  std::shared_ptr<const WorkloadShape> shape_;
};

}  // namespace

std::unique_ptr<Target> MakeHigginsTarget(std::shared_ptr<const WorkloadShape> shape) {
  return std::make_unique<HigginsTarget>(std::move(shape));
}

void AppendJsonRow(std::string_view key, uint64_t seq, std::string_view payload, std::string* out) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), seq);
  out->append(R"({"id":")").append(key).append(R"(","seq":)");
  out->append(digits, end).append(R"(,"payload":")").append(payload).append("\"}\n");
}

std::optional<uint32_t> ParseKeyIndex(std::string_view key) {
  if (key.size() < 2 || key[0] != 'k') return std::nullopt;
  uint32_t index = 0;
  auto [end, ec] = std::from_chars(key.data() + 1, key.data() + key.size(), index);
  if (ec != std::errc() || end != key.data() + key.size()) return std::nullopt;
  return index;
}

}  // namespace higgins::bench
