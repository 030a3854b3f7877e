#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "server/asio.h"
#include "server/request_handler.h"

namespace higgins::server {

/// Gathers the produce requests that the sessions of one network thread (one io_context) run
/// during a turn of its event loop, and hands them to RequestHandler::HandleProduces together
/// once the handlers already queued on the io_context have run (one post per turn). Requests
/// pipelined on a connection, or arriving on several connections at once, thus reach the broker
/// as runs to one stream, which it commits as one log entry each (BrokerApi::ProduceMany). A
/// request waits at most for the work already queued on its thread; with nothing else to do it
/// is handed over at the next turn. Thread-safe; owned through a shared_ptr (a posted turn
/// holds it).
class ProduceCoalescer : public std::enable_shared_from_this<ProduceCoalescer> {
 public:
  /// `io` and `handler` outlive every handler this posts.
  ProduceCoalescer(asio::io_context& io, RequestHandler* handler) : io_(io), handler_(handler) {}

  /// Queues a produce request; its reply comes as RequestHandler::Handle would give it.
  void Add(RequestHandler::QueuedProduce produce);

 private:
  void Flush();

  asio::io_context& io_;
  RequestHandler* handler_;
  std::mutex mu_;  // over the members below
  std::vector<RequestHandler::QueuedProduce> queue_;
  bool scheduled_ = false;  // a Flush is posted
};

}  // namespace higgins::server
