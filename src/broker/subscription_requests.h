#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "broker/broker.h"
#include "higgins.pb.h"

namespace higgins::broker {

/// The connection a request arrived on. A subscription's consumers are connections: a take
/// makes its connection one, and its pushes travel on it.
struct Connection {
  uint64_t id = 0;
  /// Sends an unsolicited message (a subscription push) on the connection. Thread-safe; drops
  /// the message once the connection is closed.
  std::function<void(higgins::wire::Message)> push;
};

/// The subscription requests of docs/protocol.md ("Subscriptions") on the broker's
/// SubscriptionManager: protocol messages in, replies out. Thread-safe.
class SubscriptionRequests {
 public:
  using Reply = std::function<void(higgins::wire::Message)>;
  explicit SubscriptionRequests(Broker* broker) : broker_(broker) {}

  higgins::wire::Message Create(const higgins::wire::Message& request);
  /// `connection` null (a request from no connection) is refused: pushes need one.
  higgins::wire::Message Take(const higgins::wire::Message& request, const Connection* connection);
  /// Replies once the acknowledgement is durable (possibly on the manager's sync thread).
  void Acknowledge(const higgins::wire::Message& request, Reply reply);
  higgins::wire::Message Get(const higgins::wire::Message& request);
  higgins::wire::Message Delete(const higgins::wire::Message& request);

  /// The push message of `push` (a TakeRecordsResponse with push = true).
  static Result<higgins::wire::Message> PushMessage(const SubscriptionPush& push);

 private:
  Broker* broker_;
};

/// A subscription id from the wire: 16 raw bytes, or the UUID as text (36 characters, or 32
/// hex digits). Errors: InvalidArgument.
Result<std::string> DecodeSubscriptionId(std::string_view wire);

}  // namespace higgins::broker
