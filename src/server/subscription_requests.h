#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "broker/broker_api.h"
#include "higgins.pb.h"

namespace higgins::server {

/// The connection a request arrived on. A subscription's consumers are connections: a take
/// makes its connection one, and its pushes travel on it.
struct Connection {
  uint64_t id = 0;
  /// Sends an unsolicited message (a subscription push) on the connection. Thread-safe; drops
  /// the message once the connection is closed.
  std::function<void(higgins::wire::Message)> push;
  /// Whether the connection's unsent replies and pushes are under its limit. Once it says no,
  /// the connection calls RequestHandler::ConnectionReady when it has room again. Thread-safe.
  std::function<bool()> ready;
};

/// The subscription requests of docs/protocol.md ("Subscriptions") on the broker's
/// SubscriptionManager: protocol messages in, replies out. Thread-safe.
class SubscriptionRequests {
 public:
  using Reply = std::function<void(higgins::wire::Message)>;
  /// `max_push_bytes`: the connection's frame limit; larger pushes are split.
  SubscriptionRequests(broker::BrokerApi* broker, size_t max_push_bytes)
      : broker_(broker), max_push_bytes_(max_push_bytes) {}

  higgins::wire::Message Create(const higgins::wire::Message& request);
  /// `connection` null (a request from no connection) is refused: pushes need one.
  higgins::wire::Message Take(const higgins::wire::Message& request, const Connection* connection);
  /// Replies once the acknowledgement is durable (possibly on the manager's sync thread).
  void Acknowledge(const higgins::wire::Message& request, const Reply& reply);
  higgins::wire::Message Get(const higgins::wire::Message& request);
  higgins::wire::Message Delete(const higgins::wire::Message& request);

  /// What PushMessages makes of a delivery round's pushes.
  struct PushFrames {
    /// TakeRecordsResponses with push = true, to be sent in order.
    std::vector<higgins::wire::Message> messages;
    /// Why pushes were left out: encoding errors, or ResourceExhausted for a single record
    /// (or window) that passes the frame limit. Their records stay in flight, and `messages`
    /// holds, in their place, a push with the error (`errors`, `code`, no records).
    std::vector<Status> failed;
  };
  /// The push messages of `pushes`, all of one subscription: their Records in order, as many
  /// per message as fit in `max_bytes` (docs/protocol.md, "Subscriptions"); a push whose
  /// records alone pass it is split into consecutive runs; an ended push is a message of its
  /// own.
  static PushFrames PushMessages(std::span<const subscription::SubscriptionPush> pushes,
                                 size_t max_bytes);

 private:
  broker::BrokerApi* broker_;
  size_t max_push_bytes_;
};

/// A subscription id from the wire: 16 raw bytes, or the UUID as text (36 characters, or 32
/// hex digits). Errors: InvalidArgument.
Result<SubscriptionId> DecodeSubscriptionId(std::string_view wire);

}  // namespace higgins::server
