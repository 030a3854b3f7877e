#pragma once

#include <functional>
#include <memory>
#include <span>

#include "broker/broker_api.h"
#include "common/serial_executor.h"
#include "higgins.pb.h"
#include "server/subscription_requests.h"

namespace higgins::server {

/// Maps protocol requests (docs/protocol.md) onto the broker's API (broker/broker_api.h) and builds
/// the replies. Every request gets exactly one reply carrying the request's correlation id; errors
/// travel in the reply (its `errors` and `code` fields, or an ERROR message for requests that have
/// no reply type). Thread-safe.
class RequestHandler {
 public:
  using Reply = std::function<void(higgins::wire::Message)>;

  /// `max_reply_bytes`: replies (GetIndex, Metadata) that would be larger are refused with
  /// ResourceExhausted instead; the frame limit of the connection.
  RequestHandler(broker::BrokerApi* broker, size_t max_reply_bytes);
  ~RequestHandler();  // runs the administrative requests already received

  /// Calls `reply` once: on this thread for queries, metadata and pings; from the group
  /// committer's thread for produces (once the records are durable) and from derived-stream
  /// workers for read-your-writes waits; from one administrative thread, in arrival order, for
  /// configuration changes and module uploads (which compile WebAssembly), so that those never
  /// hold up a network thread. An exception below becomes an ERROR reply (UNKNOWN).
  /// Acknowledgements reply from the subscriptions' sync thread once durable. `connection`: the
  /// connection the request came on (takes need one, to push records on).
  void Handle(const higgins::wire::Message& request, Reply reply,
              const Connection* connection = nullptr);
  /// A connection closed: it is no longer a consumer of any subscription (its records in
  /// flight are pushed again, to other consumers).
  void ConnectionClosed(uint64_t connection);
  /// A connection whose Connection::ready said no has room for pushes again.
  void ConnectionReady(uint64_t connection);

  /// A produce request waiting to be handled with others (ProduceCoalescer).
  struct QueuedProduce {
    higgins::wire::Message request;
    Reply reply;
  };
  /// Handles produce requests together: each run of consecutive requests to one stream goes to
  /// BrokerApi::ProduceMany, so that their rows are committed as one log entry; each request
  /// gets the reply Handle would give it, from the thread Handle would give it from. A
  /// request that is not a produce with a body goes to Handle. The replies are moved out.
  void HandleProduces(std::span<QueuedProduce> produces);

 private:
  higgins::wire::Message Ping(const higgins::wire::Message& request);
  higgins::wire::Message CreateConfiguration(const higgins::wire::Message& request);
  higgins::wire::Message DeleteConfiguration(const higgins::wire::Message& request);
  higgins::wire::Message GetTopography(const higgins::wire::Message& request);
  higgins::wire::Message UploadModule(const higgins::wire::Message& request);
  higgins::wire::Message GetIndex(const higgins::wire::Message& request);
  /// GetIndex after WaitForQuery of every index (GetIndexRequest.wait_for_derived).
  void WaitThenGetIndex(const higgins::wire::Message& request, Reply reply);
  higgins::wire::Message Metadata(const higgins::wire::Message& request);
  void Produce(const higgins::wire::Message& request, Reply reply);
  /// The completion of `request`'s produce: builds its reply, waits for derived streams if it
  /// asks to, and calls `reply`.
  broker::BrokerApi::ProduceDone ProduceReply(const higgins::wire::Message& request, Reply reply);
  void HandleOrThrow(const higgins::wire::Message& request, const Reply& reply,
                     const Connection* connection);
  void RunAdmin(const higgins::wire::Message& request, Reply reply,
                higgins::wire::Message (RequestHandler::*operation)(const higgins::wire::Message&));
  void RunAdmin(const higgins::wire::Message& request, Reply reply,
                std::function<higgins::wire::Message(const higgins::wire::Message&)> operation);

  broker::BrokerApi* broker_;
  size_t max_reply_bytes_;
  std::unique_ptr<SubscriptionRequests> subscriptions_;
  std::unique_ptr<SerialExecutor> admin_;
};

/// An ERROR message (Error.type and message) answering `request`'s correlation id, if any.
higgins::wire::Message MakeErrorMessage(higgins::wire::Error::Type type, const std::string& message,
                                        const higgins::wire::Message* request);

}  // namespace higgins::server
