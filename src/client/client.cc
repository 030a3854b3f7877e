// The public methods of higgins::Client: build the request, send it through the Dispatcher,
// decode the reply. No exception leaves this file: every entry point converts them to a Status.
#include "higgins/client.h"

#include <algorithm>
#include <exception>
#include <limits>
#include <new>
#include <utility>

#include "client/address.h"
#include "client/connection.h"
#include "client/dispatcher.h"
#include "client/reply_decoder.h"
#include "client/reply_slot.h"
#include "client/requests.h"
#include "client/subscription_decoder.h"
#include "client/subscription_id.h"
#include "common/quote.h"

namespace higgins {

using client_internal::Dispatcher;
using client_internal::IndexQuery;
using client_internal::ReplySlot;
using client_internal::SubscriptionId;

class Client::Impl {
 public:
  Impl(std::string address, std::shared_ptr<Dispatcher> dispatcher)
      : address_(std::move(address)), dispatcher_(std::move(dispatcher)) {}
  ~Impl() { dispatcher_->Stop(); }

  const std::string address_;
  const std::shared_ptr<Dispatcher> dispatcher_;
};

namespace {

Status StatusOf(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::bad_alloc&) {
    return Status::ResourceExhausted("out of memory");
  } catch (const std::exception& e) {
    return Status::Internal(std::string("unexpected exception: ") + e.what());
  } catch (...) {
    return Status::Internal("unexpected exception");
  }
}

// Runs `body`, turning an exception into the Status it stands for.
template <typename F>
auto Guard(F&& body) -> decltype(body()) {
  try {
    return body();
  } catch (...) {
    return StatusOf(std::current_exception());
  }
}

// The Pending<T>::Decode of each reply type: takes the slot's reply and decodes it.
template <typename T, Result<T> (*Decode)(wire::Message)>
Result<T> TakeAndDecode(ReplySlot& slot) {
  return Guard([&]() -> Result<T> {
    HIGGINS_ASSIGN_OR_RETURN(wire::Message reply, slot.Take());
    return Decode(std::move(reply));
  });
}

constexpr auto kDecodeProduce = &TakeAndDecode<ProduceResult, client_internal::DecodeProduce>;
constexpr auto kDecodeRecords = &TakeAndDecode<Records, client_internal::DecodeRecords>;

// Sends `build()`'s request; any failure before sending lands in the Pending.
template <typename T, typename Build>
Pending<T> SendAsync(Dispatcher& dispatcher, wire::Message::Type type,
                     typename Pending<T>::Decode decode, Build&& build) {
  try {
    wire::Message request = build();
    return Pending<T>(dispatcher.Send(std::move(request)), decode);
  } catch (...) {
    return Pending<T>(ReplySlot::Failed(type, StatusOf(std::current_exception())), decode);
  }
}

// Sends `build()`'s request and waits for a reply that carries only a status.
template <typename Build>
Status StatusCall(Dispatcher& dispatcher, wire::Message::Type reply_type, Build&& build) {
  return Guard([&]() -> Status {
    auto slot = dispatcher.Send(build());
    auto reply = slot->Take();
    if (!reply.ok()) return reply.status();
    return client_internal::DecodeStatusReply(*reply, reply_type);
  });
}

}  // namespace

Result<std::unique_ptr<Client>> Client::Connect(const ClientOptions& options) {
  return Guard([&]() -> Result<std::unique_ptr<Client>> {
    if (options.host.empty()) return Status::InvalidArgument("no broker host given");
    if (options.port == 0) return Status::InvalidArgument("no broker port given");
    const std::string address = client_internal::FormatAddress(options.host, options.port);
    HIGGINS_ASSIGN_OR_RETURN(
        client_internal::UniqueFd fd,
        client_internal::ConnectTcp({options.host, options.port}, options.connect_timeout));
    Dispatcher::Options dispatch;
    dispatch.address = address;
    dispatch.max_frame_bytes = static_cast<uint32_t>(
        std::min<size_t>(options.max_frame_bytes, std::numeric_limits<uint32_t>::max()));
    dispatch.request_timeout = options.request_timeout;
    HIGGINS_ASSIGN_OR_RETURN(auto dispatcher,
                             Dispatcher::Start(std::move(fd), std::move(dispatch)));
    return std::unique_ptr<Client>(
        new Client(std::make_unique<Impl>(address, std::move(dispatcher))));
  });
}

Result<std::unique_ptr<Client>> Client::Connect(std::string_view address,
                                                std::chrono::milliseconds timeout) {
  return Guard([&]() -> Result<std::unique_ptr<Client>> {
    HIGGINS_ASSIGN_OR_RETURN(auto target, client_internal::ParseAddress(address));
    ClientOptions options;
    options.host = std::move(target.host);
    options.port = target.port;
    options.connect_timeout = timeout;
    return Connect(options);
  });
}

Client::Client(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Client::~Client() = default;

const std::string& Client::address() const {
  return impl_->address_;
}
bool Client::connected() const {
  return !impl_->dispatcher_->closed();
}
void Client::Close() {
  try {
    impl_->dispatcher_->Close(Status::IOError("the client closed the connection"));
  } catch (...) {
    // Only allocation can fail here. The connection is then closed by the destructor.
  }
}

Result<std::chrono::microseconds> Client::Ping() {
  return Guard([&]() -> Result<std::chrono::microseconds> {
    constexpr std::string_view kData = "higgins";
    const auto start = std::chrono::steady_clock::now();
    auto slot = impl_->dispatcher_->Send(client_internal::PingRequest(kData));
    HIGGINS_ASSIGN_OR_RETURN(wire::Message reply, slot->Take());
    const auto elapsed = std::chrono::steady_clock::now() - start;
    HIGGINS_ASSIGN_OR_RETURN(std::string echoed, client_internal::DecodePong(std::move(reply)));
    if (echoed != kData) return Status::Corruption("the pong does not echo the ping's data");
    return std::chrono::duration_cast<std::chrono::microseconds>(elapsed);
  });
}

Status Client::UploadConfiguration(std::string_view toml) {
  return ApplyConfiguration(toml).status();
}

Result<std::vector<CatchUp>> Client::ApplyConfiguration(std::string_view toml) {
  return Guard([&]() -> Result<std::vector<CatchUp>> {
    auto slot = impl_->dispatcher_->Send(client_internal::CreateConfigurationRequest(toml));
    HIGGINS_ASSIGN_OR_RETURN(wire::Message reply, slot->Take());
    return client_internal::DecodeCreateConfiguration(reply);
  });
}

Status Client::DeleteConfiguration(std::string_view key) {
  return StatusCall(*impl_->dispatcher_, wire::Message::DELETECONFIGURATIONRESPONSE,
                    [&] { return client_internal::DeleteConfigurationRequest(key); });
}

Result<std::string> Client::GetTopography() {
  return Guard([&]() -> Result<std::string> {
    auto slot = impl_->dispatcher_->Send(client_internal::GetTopographyRequest());
    HIGGINS_ASSIGN_OR_RETURN(wire::Message reply, slot->Take());
    return client_internal::DecodeTopography(std::move(reply));
  });
}

Result<uint64_t> Client::UploadModule(std::string_view name, std::span<const uint8_t> wasm) {
  return Guard([&]() -> Result<uint64_t> {
    auto slot = impl_->dispatcher_->Send(client_internal::UploadModuleRequest(name, wasm));
    HIGGINS_ASSIGN_OR_RETURN(wire::Message reply, slot->Take());
    return client_internal::DecodeUploadModule(reply);
  });
}

Result<std::vector<StreamInfo>> Client::Metadata(std::string_view stream) {
  return Guard([&]() -> Result<std::vector<StreamInfo>> {
    auto slot = impl_->dispatcher_->Send(client_internal::MetadataRequest(stream));
    HIGGINS_ASSIGN_OR_RETURN(wire::Message reply, slot->Take());
    return client_internal::DecodeMetadata(std::move(reply));
  });
}

// --- Produce -------------------------------------------------------------------------------------

Pending<ProduceResult> Client::ProduceJsonAsync(std::string_view stream, std::string_view json,
                                                const CallOptions& options) {
  return SendAsync<ProduceResult>(
      *impl_->dispatcher_, wire::Message::PRODUCEREQUEST, kDecodeProduce, [&] {
        return client_internal::ProduceRequest(stream, std::string(json), wire::JSON, options);
      });
}

Pending<ProduceResult> Client::ProduceIpcAsync(std::string_view stream,
                                               std::span<const uint8_t> ipc,
                                               const CallOptions& options) {
  return SendAsync<ProduceResult>(
      *impl_->dispatcher_, wire::Message::PRODUCEREQUEST, kDecodeProduce, [&] {
        return client_internal::ProduceRequest(
            stream, std::string(reinterpret_cast<const char*>(ipc.data()), ipc.size()),
            wire::ARROW_IPC, options);
      });
}

Pending<ProduceResult> Client::ProduceAsync(std::string_view stream,
                                            const arrow::RecordBatch& batch,
                                            const CallOptions& options) {
  auto ipc = Guard([&] { return client_internal::EncodeBatches({&batch, 1}); });
  if (!ipc.ok()) {
    return Pending<ProduceResult>(ReplySlot::Failed(wire::Message::PRODUCEREQUEST, ipc.status()),
                                  kDecodeProduce);
  }
  return SendAsync<ProduceResult>(
      *impl_->dispatcher_, wire::Message::PRODUCEREQUEST, kDecodeProduce, [&] {
        return client_internal::ProduceRequest(stream, *std::move(ipc), wire::ARROW_IPC, options);
      });
}

Result<ProduceResult> Client::ProduceJson(std::string_view stream, std::string_view json,
                                          const CallOptions& options) {
  return ProduceJsonAsync(stream, json, options).Get();
}

Result<ProduceResult> Client::Produce(std::string_view stream, const arrow::RecordBatch& batch,
                                      const CallOptions& options) {
  return ProduceAsync(stream, batch, options).Get();
}

Result<ProduceResult> Client::Produce(std::string_view stream,
                                      std::span<const arrow::RecordBatch> batches,
                                      const CallOptions& options) {
  auto ipc = Guard([&] { return client_internal::EncodeBatches(batches); });
  if (!ipc.ok()) return ipc.status();
  return SendAsync<ProduceResult>(*impl_->dispatcher_, wire::Message::PRODUCEREQUEST,
                                  kDecodeProduce,
                                  [&] {
                                    return client_internal::ProduceRequest(
                                        stream, *std::move(ipc), wire::ARROW_IPC, options);
                                  })
      .Get();
}

Result<ProduceResult> Client::ProduceIpc(std::string_view stream, std::span<const uint8_t> ipc,
                                         const CallOptions& options) {
  return ProduceIpcAsync(stream, ipc, options).Get();
}

// --- Query ---------------------------------------------------------------------------------------

namespace {

Pending<Records> SendQuery(Dispatcher& dispatcher, std::string_view stream,
                           std::string_view partition_key, const IndexQuery& query,
                           const CallOptions& options) {
  return SendAsync<Records>(dispatcher, wire::Message::GETINDEXREQUEST, kDecodeRecords, [&] {
    return client_internal::QueryRequest(stream, partition_key, query, options);
  });
}

}  // namespace

Pending<Records> Client::QueryAtAsync(std::string_view stream, std::string_view partition_key,
                                      uint64_t offset, const CallOptions& options) {
  return SendQuery(*impl_->dispatcher_, stream, partition_key,
                   {.type = wire::Index::OFFSET, .index = offset}, options);
}

Pending<Records> Client::QueryLatestAsync(std::string_view stream, std::string_view partition_key,
                                          const CallOptions& options) {
  return SendQuery(*impl_->dispatcher_, stream, partition_key, {.type = wire::Index::LATEST},
                   options);
}

Pending<Records> Client::QueryRangeAsync(std::string_view stream, std::string_view partition_key,
                                         uint64_t from, uint64_t to, const CallOptions& options) {
  return SendQuery(*impl_->dispatcher_, stream, partition_key,
                   {.type = wire::Index::RANGE, .index = from, .end = to}, options);
}

Pending<Records> Client::QueryAtTimeAsync(std::string_view stream, std::string_view partition_key,
                                          uint64_t timestamp_ms, const CallOptions& options) {
  return SendQuery(*impl_->dispatcher_, stream, partition_key,
                   {.type = wire::Index::TIMESTAMP, .timestamp = timestamp_ms}, options);
}

Result<Records> Client::QueryAt(std::string_view stream, std::string_view partition_key,
                                uint64_t offset, const CallOptions& options) {
  return QueryAtAsync(stream, partition_key, offset, options).Get();
}

Result<Records> Client::QueryLatest(std::string_view stream, std::string_view partition_key,
                                    const CallOptions& options) {
  return QueryLatestAsync(stream, partition_key, options).Get();
}

Result<Records> Client::QueryRange(std::string_view stream, std::string_view partition_key,
                                   uint64_t from, uint64_t to, const CallOptions& options) {
  return QueryRangeAsync(stream, partition_key, from, to, options).Get();
}

// [from, to), as QueryRange.
Status Client::QueryRangeEach(std::string_view stream, std::string_view partition_key,
                              uint64_t from,  // NOLINT(bugprone-easily-swappable-parameters)
                              uint64_t to,
                              const std::function<Status(const Records&)>& each,
                              const CallOptions& options) {
  uint64_t next = from;
  while (next < to) {
    Result<Records> records = QueryRange(stream, partition_key, next, to, options);
    const bool first = next == from;
    if (!records.ok()) {
      // After the first reply, NotFound means the range ran past the partition's end.
      if (!first && records.status().code() == StatusCode::kNotFound) return Status::OK();
      return records.status();
    }
    const uint64_t rows = static_cast<uint64_t>(records->num_rows());
    if (rows == 0 || records->offset != next) {
      // A broker answers a range from `next` with at least one record, or NotFound.
      if (first && rows == 0) {
        return Status::NotFound("partition " + Quote(partition_key) +
                                " has no records from offset " + std::to_string(from));
      }
      if (rows == 0) return Status::OK();
      return Status::Corruption("a range query from offset " + std::to_string(next) +
                                " was answered from offset " + std::to_string(records->offset));
    }
    HIGGINS_RETURN_IF_ERROR(each(*records));
    next += rows;
  }
  return Status::OK();
}

Result<Records> Client::QueryAtTime(std::string_view stream, std::string_view partition_key,
                                    uint64_t timestamp_ms, const CallOptions& options) {
  return QueryAtTimeAsync(stream, partition_key, timestamp_ms, options).Get();
}

// --- Subscriptions -------------------------------------------------------------------------------

namespace {

// Sends `build()`'s request and decodes its reply with `decode`.
template <typename T, typename Build, typename Decode>
Result<T> Call(Dispatcher& dispatcher, Build&& build, Decode&& decode) {
  return Guard([&]() -> Result<T> {
    auto slot = dispatcher.Send(build());
    HIGGINS_ASSIGN_OR_RETURN(wire::Message reply, slot->Take());
    return decode(std::move(reply));
  });
}

}  // namespace

Result<std::string> Client::CreateSubscription(std::string_view stream,
                                               const SubscriptionStart& start,
                                               std::chrono::milliseconds visibility_timeout) {
  if (visibility_timeout.count() < 0) {
    return Status::InvalidArgument("the visibility timeout must not be negative");
  }
  return Call<std::string>(
      *impl_->dispatcher_,
      [&] {
        return client_internal::CreateSubscriptionRequest(
            stream, start, static_cast<uint64_t>(visibility_timeout.count()));
      },
      client_internal::DecodeCreateSubscription);
}

Result<uint64_t> Client::Take(std::string_view subscription_id, uint64_t n,
                              std::string_view stream) {
  auto id = Guard([&] { return SubscriptionId::Parse(subscription_id); });
  if (!id.ok()) return id.status();
  return Call<uint64_t>(
      *impl_->dispatcher_,
      [&] { return client_internal::TakeRecordsRequest(id->bytes(), n, stream); },
      client_internal::DecodeTake);
}

Result<std::optional<Delivery>> Client::NextDelivery(std::chrono::milliseconds timeout) {
  return Guard([&]() -> Result<std::optional<Delivery>> {
    HIGGINS_ASSIGN_OR_RETURN(auto pushed, impl_->dispatcher_->NextPush(timeout));
    if (!pushed) return std::optional<Delivery>();
    if (!pushed->ended.ok()) return pushed->ended;
    HIGGINS_ASSIGN_OR_RETURN(Delivery delivery,
                             client_internal::DecodeDelivery(*std::move(pushed)));
    return std::optional<Delivery>(std::move(delivery));
  });
}

Status Client::Acknowledge(std::string_view subscription_id, std::span<const AckRange> ranges,
                           std::string_view stream) {
  auto id = Guard([&] { return SubscriptionId::Parse(subscription_id); });
  if (!id.ok()) return id.status();
  return Guard([&]() -> Status {
    auto request = client_internal::AcknowledgeRequest(id->bytes(), ranges, stream);
    if (!request.ok()) return request.status();
    auto slot = impl_->dispatcher_->Send(*std::move(request));
    auto reply = slot->Take();
    if (!reply.ok()) return reply.status();
    return client_internal::DecodeAcknowledge(*reply);
  });
}

// Public API: text id first, as in docs/client.md. Swapped, the stream name is not a UUID and
// Parse fails with InvalidArgument.
// NOLINTNEXTLINE(bugprone-easily-swappable-parameters)
Result<SubscriptionInfo> Client::GetSubscription(std::string_view subscription_id,
                                                 std::string_view stream) {
  auto id = Guard([&] { return SubscriptionId::Parse(subscription_id); });
  if (!id.ok()) return id.status();
  return Call<SubscriptionInfo>(
      *impl_->dispatcher_, [&] { return client_internal::GetSubscriptionRequest(*id, stream); },
      client_internal::DecodeSubscription);
}

Result<std::vector<SubscriptionInfo>> Client::ListSubscriptions(std::string_view stream) {
  return Call<std::vector<SubscriptionInfo>>(
      *impl_->dispatcher_, [&] { return client_internal::ListSubscriptionsRequest(stream); },
      client_internal::DecodeSubscriptionList);
}

// Public API, as GetSubscription: a swapped pair fails Parse with InvalidArgument.
// NOLINTNEXTLINE(bugprone-easily-swappable-parameters)
Status Client::DeleteSubscription(std::string_view subscription_id, std::string_view stream) {
  auto id = Guard([&] { return SubscriptionId::Parse(subscription_id); });
  if (!id.ok()) return id.status();
  return StatusCall(*impl_->dispatcher_, wire::Message::DELETESUBSCRIPTIONRESPONSE,
                    [&] { return client_internal::DeleteSubscriptionRequest(*id, stream); });
}

}  // namespace higgins
