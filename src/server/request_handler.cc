#include "server/request_handler.h"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "common/all_of.h"
#include "common/quote.h"
#include "protocol/messages.h"
#include "protocol/partition_name.h"
#include "protocol/reply_size.h"
#include "server/subscription_requests.h"
#include "server/wire_replies.h"
#include "stream/window_view.h"

namespace higgins::server {
namespace {

using higgins::wire::Message;

stream::PayloadFormat FromProto(higgins::wire::PayloadFormat format) {
  switch (format) {
    case higgins::wire::JSON: return stream::PayloadFormat::kJson;
    case higgins::wire::ARROW_IPC: return stream::PayloadFormat::kArrowIpc;
    default: return stream::PayloadFormat::kAuto;
  }
}

}  // namespace

Message MakeErrorMessage(higgins::wire::Error::Type type, const std::string& message,
                         const Message* request) {
  Message reply;
  reply.set_type(Message::ERROR);
  if (request != nullptr && request->has_correlationid()) {
    reply.set_correlationid(request->correlationid());
  }
  reply.mutable_error()->set_type(type);
  reply.mutable_error()->set_message(protocol::EscapeInvalidUtf8(message));
  return reply;
}

RequestHandler::RequestHandler(broker::BrokerApi* broker, size_t max_reply_bytes)
    : broker_(broker),
      max_reply_bytes_(max_reply_bytes),
      subscriptions_(std::make_unique<SubscriptionRequests>(broker, max_reply_bytes)),
      admin_(std::make_unique<SerialExecutor>()) {}

RequestHandler::~RequestHandler() = default;

void RequestHandler::ConnectionClosed(uint64_t connection) {
  broker_->RemoveConsumer(ConsumerId(connection));
}

void RequestHandler::ConnectionReady(uint64_t connection) {
  broker_->ConsumerReady(ConsumerId(connection));
}

void RequestHandler::Handle(const Message& request, Reply reply, const Connection* connection) {
  // Every request gets a reply, even when something below throws (a library's bad_alloc on a
  // hostile input, say): the request fails, the broker and the connection carry on.
  auto answered = std::make_shared<std::atomic<bool>>(false);
  Reply once = [reply = std::move(reply), answered](Message m) {
    *answered = true;
    reply(std::move(m));
  };
  try {
    HandleOrThrow(request, once, connection);
  } catch (const std::exception& e) {
    if (!*answered) {
      once(MakeErrorMessage(higgins::wire::Error::UNKNOWN,
                            std::string("the broker failed on this request: ") + e.what(),
                            &request));
    }
  }
}

void RequestHandler::RunAdmin(const Message& request, Reply reply,
                              Message (RequestHandler::*operation)(const Message&)) {
  RunAdmin(request, std::move(reply),
           [this, operation](const Message& m) { return (this->*operation)(m); });
}

void RequestHandler::RunAdmin(const Message& request, Reply reply,
                              std::function<Message(const Message&)> operation) {
  admin_->Post([request, reply = std::move(reply), operation = std::move(operation)] {
    Message answer;
    try {
      answer = operation(request);
    } catch (const std::exception& e) {
      answer =
          MakeErrorMessage(higgins::wire::Error::UNKNOWN,
                           std::string("the broker failed on this request: ") + e.what(), &request);
    }
    reply(std::move(answer));
  });
}

void RequestHandler::HandleOrThrow(const Message& request, const Reply& reply,
                                   const Connection* connection) {
  if (protocol::ReplyTypeOf(request.type()) && !protocol::HasBody(request)) {
    return reply(MakeErrorMessage(
        higgins::wire::Error::MALFORMED_MESSAGE,
        std::string(protocol::MessageTypeName(request.type())) + " carries no request body",
        &request));
  }
  switch (request.type()) {
    case Message::PING: return reply(Ping(request));
    case Message::PRODUCEREQUEST: return Produce(request, reply);
    case Message::GETINDEXREQUEST:
      if (request.getindexrequest().wait_for_derived()) {
        return WaitThenGetIndex(request, reply);
      }
      return reply(GetIndex(request));
    case Message::METADATAREQUEST: return reply(Metadata(request));
    case Message::CREATECONFIGURATIONREQUEST:
      return RunAdmin(request, reply, &RequestHandler::CreateConfiguration);
    case Message::DELETECONFIGURATIONREQUEST:
      return RunAdmin(request, reply, &RequestHandler::DeleteConfiguration);
    case Message::UPLOADMODULEREQUEST:
      return RunAdmin(request, reply, &RequestHandler::UploadModule);
    case Message::GETCURRENTTOPOGRAPHYREQUEST: return reply(GetTopography(request));
    case Message::CREATESUBSCRIPTIONREQUEST:
      return RunAdmin(request, reply,
                      [this](const Message& m) { return subscriptions_->Create(m); });
    case Message::DELETESUBSCRIPTIONREQUEST:
      return RunAdmin(request, reply,
                      [this](const Message& m) { return subscriptions_->Delete(m); });
    case Message::GETSUBSCRIPTIONREQUEST: return reply(subscriptions_->Get(request));
    case Message::ACKNOWLEDGEREQUEST: return subscriptions_->Acknowledge(request, reply);
    case Message::TAKERECORDSREQUEST: return reply(subscriptions_->Take(request, connection));
    default: break;
  }
  if (Message::Type_IsValid(request.type())) {
    return reply(MakeErrorMessage(
        higgins::wire::Error::UNIMPLEMENTED,
        std::string(Message::Type_Name(request.type())) + " is a reply, not a request", &request));
  }
  return reply(MakeErrorMessage(higgins::wire::Error::UNIMPLEMENTED,
                                "unknown operation " + std::to_string(request.type()), &request));
}

Message RequestHandler::Ping(const Message& request) {
  Message r = ReplyTo(request, Message::PONG);
  r.mutable_pong()->set_data(request.ping().data());
  return r;
}

Message RequestHandler::CreateConfiguration(const Message& request) {
  Message r = ReplyTo(request, Message::CREATECONFIGURATIONRESPONSE);
  r.mutable_createconfigurationresponse();  // present even when empty: clients test for the body
  auto* response = r.mutable_createconfigurationresponse();
  auto outcome = broker_->CreateConfiguration(request.createconfigurationrequest().data());
  if (!outcome.ok()) {
    SetError(response, outcome.status());
    return r;
  }
  for (const broker::CatchUp& catch_up : outcome->catch_ups) {
    auto* c = response->add_catch_ups();
    c->set_stream(catch_up.stream);
    c->set_records(catch_up.records);
  }
  return r;
}

Message RequestHandler::DeleteConfiguration(const Message& request) {
  Message r = ReplyTo(request, Message::DELETECONFIGURATIONRESPONSE);
  r.mutable_deleteconfigurationresponse();  // present even when empty: clients test for the body
  Status s = broker_->DeleteConfiguration(request.deleteconfigurationrequest().key());
  if (!s.ok()) SetError(r.mutable_deleteconfigurationresponse(), s);
  return r;
}

Message RequestHandler::GetTopography(const Message& request) {
  Message r = ReplyTo(request, Message::GETCURRENTTOPOGRAPHYRESPONSE);
  r.mutable_getcurrenttopographyresponse()->set_toml(broker_->TopographyToml());
  return r;
}

Message RequestHandler::UploadModule(const Message& request) {
  Message r = ReplyTo(request, Message::UPLOADMODULERESPONSE);
  r.mutable_uploadmoduleresponse();  // present even when empty: clients test for the body
  const auto& body = request.uploadmodulerequest();
  auto version = broker_->UploadModule(body.name(), body.value());
  if (!version.ok()) {
    SetError(r.mutable_uploadmoduleresponse(), version.status());
  } else {
    r.mutable_uploadmoduleresponse()->set_version(*version);
  }
  return r;
}

namespace {

std::chrono::milliseconds WaitTimeout(uint32_t ms) {
  return std::chrono::milliseconds(ms == 0 ? 10'000 : ms);
}

/// The broker query of one wire index, or InvalidArgument for a malformed one.
Result<broker::QueryRequest> ToQuery(const higgins::wire::Index& index, std::string key) {
  broker::QueryRequest query;
  query.stream = index.stream();
  query.key = std::move(key);
  switch (index.type()) {
    case higgins::wire::Index::OFFSET:
      if (!index.has_index()) return Status::InvalidArgument("an OFFSET index needs `index`");
      query.kind = broker::QueryRequest::Kind::kOffset;
      query.offset = Offset(index.index());
      return query;
    case higgins::wire::Index::LATEST:
      query.kind = broker::QueryRequest::Kind::kLatest;
      return query;
    case higgins::wire::Index::TIMESTAMP:
      if (!index.has_timestamp()) {
        return Status::InvalidArgument("a TIMESTAMP index needs `timestamp`");
      }
      if (index.timestamp() > static_cast<uint64_t>(INT64_MAX)) {
        return Status::InvalidArgument("timestamp is beyond 2^63-1 ms");
      }
      query.kind = broker::QueryRequest::Kind::kTimestamp;
      query.timestamp_ms = static_cast<int64_t>(index.timestamp());
      return query;
    case higgins::wire::Index::RANGE:
      if (!index.has_index()) {
        return Status::InvalidArgument("a RANGE index needs `index` (its first offset)");
      }
      query.kind = broker::QueryRequest::Kind::kRange;
      query.offset = Offset(index.index());
      query.end = Offset(index.has_end() ? index.end() : UINT64_MAX);
      return query;
    default: return Status::InvalidArgument("unknown index type " + std::to_string(index.type()));
  }
}

}  // namespace

broker::BrokerApi::ProduceDone RequestHandler::ProduceReply(const Message& request, Reply reply) {
  const auto& body = request.producerequest();
  return [this, reply = std::move(reply), r = ReplyTo(request, Message::PRODUCERESPONSE),
          wait = body.wait_for_derived(), timeout = WaitTimeout(body.wait_timeout_ms()),
          stream = body.stream_name()](Result<stream::ProduceResult> result) mutable {
    auto* response = r.mutable_produceresponse();
    if (!result.ok()) {
      SetError(response, result.status());
      return reply(std::move(r));
    }
    for (const auto& key : result->partitions) response->add_partitions(key);
    response->mutable_partition_indexes()->Add(result->partition_indexes.begin(),
                                               result->partition_indexes.end());
    response->mutable_offsets()->Add(result->offsets.begin(), result->offsets.end());
    response->set_timestamp(static_cast<uint64_t>(result->timestamp_ms));
    if (!wait) return reply(std::move(r));
    broker_->WaitForDerived(stream, *result, timeout,
                            [reply = std::move(reply), r = std::move(r)](const Status& s) mutable {
                              if (!s.ok()) {
                                SetError(
                                    r.mutable_produceresponse(),
                                    Status(s.code(),
                                           "the records were committed (their offsets are in this "
                                           "reply), but " +
                                               s.message()));
                              }
                              reply(std::move(r));
                            });
  };
}

namespace {

/// A payload format this broker knows. proto3 keeps an unknown enum number as sent: it is
/// refused rather than read as AUTO.
bool KnownFormat(const higgins::wire::ProduceRequest& body) {
  return higgins::wire::PayloadFormat_IsValid(body.format());
}

Status UnknownFormat(const higgins::wire::ProduceRequest& body) {
  return Status::InvalidArgument("unknown payload format " + std::to_string(body.format()) +
                                 " (AUTO = 0, JSON = 1, ARROW_IPC = 2)");
}

}  // namespace

void RequestHandler::Produce(const Message& request, Reply reply) {
  const auto& body = request.producerequest();
  if (!KnownFormat(body)) return ProduceReply(request, std::move(reply))(UnknownFormat(body));
  broker_->Produce(body.stream_name(), body.payload(), FromProto(body.format()),
                   ProduceReply(request, std::move(reply)));
}

void RequestHandler::HandleProduces(std::span<QueuedProduce> produces) {
  std::vector<broker::BrokerApi::ProduceItem> items;
  size_t i = 0;
  while (i < produces.size()) {
    // A run of requests to one stream, each checked as Handle checks it.
    const std::string& stream = produces[i].request.producerequest().stream_name();
    items.clear();
    size_t end = i;
    for (; end < produces.size(); ++end) {
      const Message& request = produces[end].request;
      if (request.type() != Message::PRODUCEREQUEST || !request.has_producerequest() ||
          request.producerequest().stream_name() != stream ||
          !KnownFormat(request.producerequest())) {
        break;
      }
    }
    if (end == i) {  // not a produce request with a body, or a bad one: Handle answers it
      Handle(produces[i].request, std::move(produces[i].reply));
      ++i;
      continue;
    }
    // Every request gets one reply, even when something below throws (as in Handle).
    struct Slot {
      Reply reply;
      std::atomic<bool> answered{false};
    };
    auto slots = std::make_shared<std::vector<Slot>>(end - i);
    for (size_t k = i; k < end; ++k) {
      const auto& body = produces[k].request.producerequest();
      (*slots)[k - i].reply = std::move(produces[k].reply);
      Reply once = [slots, n = k - i](Message m) {
        Slot& slot = (*slots)[n];
        if (!slot.answered.exchange(true)) slot.reply(std::move(m));
      };
      items.push_back({body.payload(), FromProto(body.format()),
                       ProduceReply(produces[k].request, std::move(once))});
    }
    try {
      broker_->ProduceMany(stream, items);
    } catch (const std::exception& e) {
      for (size_t k = i; k < end; ++k) {
        Slot& slot = (*slots)[k - i];
        if (slot.answered.exchange(true)) continue;
        slot.reply(MakeErrorMessage(higgins::wire::Error::UNKNOWN,
                                    std::string("the broker failed on this request: ") + e.what(),
                                    &produces[k].request));
      }
    }
    i = end;
  }
}

void RequestHandler::WaitThenGetIndex(const Message& request, Reply reply) {
  const auto& body = request.getindexrequest();
  if (body.indexes_size() == 0) return reply(GetIndex(request));
  auto all = AllOf(static_cast<size_t>(body.indexes_size()),
                   [this, request, reply = std::move(reply)](const Status& s) {
                     if (!s.ok()) {
                       Message r = ReplyTo(request, Message::GETINDEXRESPONSE);
                       SetError(r.mutable_getindexresponse(), s);
                       return reply(std::move(r));
                     }
                     reply(GetIndex(request));
                   });
  const auto timeout = WaitTimeout(body.wait_timeout_ms());
  for (const auto& index : body.indexes()) {
    auto key = protocol::DecodePartitionName(index.partition());
    // A bad key is reported by the query itself. (A window stream waits for its base.)
    broker_->WaitForQuery(index.stream(), key.ok() ? *key : std::string(), timeout, all);
  }
}

namespace {

/// Bytes `record` takes in a GetIndexResponse (with its tag and length).
size_t RecordBytes(const higgins::wire::Record& record) {
  return protocol::FieldBytes(higgins::wire::GetIndexResponse::kRecordsFieldNumber,
                              record.ByteSizeLong());
}

/// The Record answering `index` with `answer` (its broker answer, `key` its decoded key), made
/// to fit the room `size` leaves: a RANGE keeps its first records that fit, one at least (the
/// client asks again from offset + count). ResourceExhausted when what must be sent does not
/// fit: the one record (or window) alone, naming it and its size, or the record after the
/// earlier indexes' records. `empty` is the size of the reply with no records.
Result<higgins::wire::Record> FitRecord(const higgins::wire::Index& index, std::string_view key,
                                        broker::QueryAnswer& answer,
                                        const protocol::ReplySize& size,
                                        const protocol::ReplySize& empty) {
  const std::optional<stream::WindowRows>& window = answer.window;
  stream::QueryRows& rows = answer.rows;
  const bool range = !window && index.type() == higgins::wire::Index::RANGE;
  const uint64_t offset = window ? window->window : rows.first_offset;
  bool guessed = false;
  while (true) {
    HIGGINS_ASSIGN_OR_RETURN(std::string data, EncodeIpc(answer.schema, &rows.batch));
    higgins::wire::Record record;
    FillRecord(&record, std::move(data), index.stream(), key, offset, rows,
               window ? &*window : nullptr);
    const size_t bytes = RecordBytes(record);
    if (size.Fits(bytes)) return record;
    const int64_t n = rows.batch.num_rows();
    if (!range || n <= 1) {
      const std::string what = (window ? "window " : "the record at offset ") +
                               std::to_string(offset) + " of partition " + Quote(key);
      if (!empty.Fits(bytes)) {
        return Status::ResourceExhausted(
            "stream " + Quote(index.stream()) + ": " + what + " needs a reply of " +
            std::to_string(empty.TotalWith(bytes)) + " bytes, more than the frame limit of " +
            std::to_string(size.limit()) + " bytes");
      }
      return Status::ResourceExhausted(
          "stream " + Quote(index.stream()) + ": " + what +
          " does not fit in the reply after the records of the indexes before it (frame limit " +
          std::to_string(size.limit()) + " bytes); ask for fewer indexes at a time");
    }
    // First a guess in proportion to the room left, then halves: the rows that fit, roughly.
    int64_t keep = n / 2;
    if (!guessed) {
      keep = static_cast<int64_t>(static_cast<double>(n) * static_cast<double>(size.Room()) /
                                  static_cast<double>(bytes));
      guessed = true;
    }
    keep = std::clamp<int64_t>(keep, 1, n - 1);
    rows.batch = rows.batch.Slice(0, keep);
    rows.timestamps_ms.resize(static_cast<size_t>(keep));
  }
}

}  // namespace

Message RequestHandler::GetIndex(const Message& request) {
  Message r = ReplyTo(request, Message::GETINDEXRESPONSE);
  auto* response = r.mutable_getindexresponse();
  const protocol::ReplySize empty(r, *response, max_reply_bytes_);
  protocol::ReplySize size = empty;
  std::string errors;
  const auto& indexes = request.getindexrequest().indexes();
  StatusCode first_code = StatusCode::kOk;
  for (int i = 0; i < indexes.size(); ++i) {
    const higgins::wire::Index& index = indexes[i];
    auto fail = [&](const Status& s) {
      if (first_code == StatusCode::kOk) first_code = s.code();
      errors += "index " + std::to_string(i) + ": " + s.message() + "\n";
    };
    auto key = protocol::DecodePartitionName(index.partition());
    if (!key.ok()) {
      fail(key.status());
      continue;
    }
    auto query = ToQuery(index, *std::move(key));
    Result<broker::QueryAnswer> answer =
        query.ok() ? broker_->Query(*query)
                   : Result<broker::QueryAnswer>(
                         query.status().WithContext("stream " + Quote(index.stream())));
    if (!answer.ok()) {
      fail(answer.status());
      continue;
    }
    // Once an index failed the records are dropped: only the errors are worth building.
    if (!errors.empty()) continue;
    auto record = FitRecord(index, query->key, *answer, size, empty);
    if (!record.ok()) {
      fail(record.status());
      continue;
    }
    size.Add(RecordBytes(*record));
    *response->add_records() = *std::move(record);
  }
  if (!errors.empty()) {
    errors.pop_back();
    response->clear_records();
    SetErrorWithin(response, Status(first_code, errors), empty);
  }
  return r;
}

Message RequestHandler::Metadata(const Message& request) {
  Message r = ReplyTo(request, Message::METADATARESPONSE);
  auto* response = r.mutable_metadataresponse();
  auto streams = broker_->Metadata(request.metadatarequest().name());
  if (!streams.ok()) {
    SetError(response, streams.status());
    return r;
  }
  std::string summary;
  for (const broker::StreamInfo& info : *streams) {
    auto* s = response->add_streams();
    s->set_name(info.name);
    s->set_schema(info.decl.schema);
    s->set_partition_key(info.decl.partition_key);
    s->set_storage(info.decl.storage);
    s->set_kind(info.kind);
    s->set_buckets(info.decl.buckets);
    s->set_partition_count(info.partition_count);
    s->set_record_count(info.record_count);
    s->set_partitions_truncated(info.partitions_truncated);
    s->set_lag(info.lag);
    auto schema_bytes = EncodeIpc(info.schema, nullptr);
    if (schema_bytes.ok()) s->set_arrow_schema(*std::move(schema_bytes));
    for (const auto& p : info.partitions) {
      auto* pm = s->add_partitions();
      pm->set_key(p.key);
      pm->set_count(p.count);
    }
    summary += "stream '" + info.name + "': " + std::to_string(info.partition_count) +
               " partitions, " + std::to_string(info.record_count) + " records\n";
  }
  response->set_message(summary);
  // Measured whole: names, keys, schemas and the summary.
  if (const size_t bytes = r.ByteSizeLong(); bytes > max_reply_bytes_) {
    response->Clear();
    SetError(response, Status::ResourceExhausted(
                           "the metadata reply would take " + std::to_string(bytes) +
                           " bytes, more than the frame limit of " +
                           std::to_string(max_reply_bytes_) + " bytes; ask for one stream"));
  }
  return r;
}

}  // namespace higgins::server
