#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "higgins/result.h"
#include "server/asio.h"
#include "server/byte_budget.h"
#include "server/request_handler.h"
#include "server/session_set.h"

namespace higgins::server {

struct ServerOptions {
  std::string bind = "127.0.0.1";
  uint16_t port = 4932;  // 0: any free port (see Server::port())
  uint32_t max_frame_bytes = 64u << 20;
  /// Connections beyond this get an OVERLOADED error and are closed.
  size_t max_connections = 1024;
  /// Requests read from one connection and not yet answered; reading pauses at the limit.
  size_t max_in_flight_per_connection = 1024;
  /// The byte limits of every connection's requests and replies (ByteBudget), shared with the
  /// other listeners of the broker. Null: the server keeps a budget of its own with
  /// `byte_limits`. Above a connection's reply limit the session runs no further request and
  /// reads no more until the client catches up, so it buffers at most that plus one reply.
  ByteBudget* budget = nullptr;
  ConnectionByteLimits byte_limits;
  /// A connection without a byte read or written for this long is closed, unless it consumes a
  /// subscription or has requests or replies in progress; zero: never. Kafka's
  /// connections.max.idle.ms has the same default, 10 minutes.
  std::chrono::milliseconds idle_timeout{std::chrono::minutes(10)};
};

class Session;
class ProduceCoalescer;
class MemoryRelease;

/// The TCP listener (docs/protocol.md): one Session per connection, each reading
/// frames, handing requests to the RequestHandler as they arrive (so pipelined requests are
/// processed concurrently: produces share group commits) and writing the replies back in
/// request order. Accepts on the first io_context it is given and spreads sessions over all of
/// them round-robin (one thread per io_context, so a session's work never crosses threads
/// except for produce completions from the group committer); each session also has a strand.
class Server {
 public:
  /// `contexts`: at least one; each is run by its own thread(s) and outlives the Server.
  Server(std::vector<asio::io_context*> contexts, RequestHandler* handler, ServerOptions options);
  ~Server();

  /// Binds and starts accepting. Errors: IOError naming the address (in use, bad address).
  Status Start();
  /// The bound port (useful with options.port == 0).
  uint16_t port() const { return port_; }

  /// Graceful stop, callable from any thread: stops accepting and reading; each session
  /// answers the requests it has read, flushes and closes. `done` runs once every session has
  /// closed.
  void Stop(std::function<void()> done);

  size_t connection_count() const;

 private:
  friend class Session;
  asio::awaitable<void> Accept();
  void Remove(Session* session);

  asio::io_context& io_;  // contexts_[0]: the acceptor's
  std::vector<asio::io_context*> contexts_;
  std::vector<std::shared_ptr<ProduceCoalescer>> coalescers_;  // one per context
  size_t next_context_ = 0;
  RequestHandler* handler_;
  ServerOptions options_;
  std::unique_ptr<ByteBudget> own_budget_;  // when options_.budget is null
  ByteBudget* budget_;
  std::shared_ptr<MemoryRelease> memory_release_;  // after connections close
  asio::ip::tcp::acceptor acceptor_;
  uint16_t port_ = 0;
  SessionSet<Session> sessions_;
  std::atomic<uint64_t> next_connection_id_{1};  // a session's id: its subscription consumer id
};

}  // namespace higgins::server
