#pragma once

#include <asio.hpp>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "higgins/result.h"
#include "server/request_handler.h"

namespace higgins::server {

struct ServerOptions {
  std::string bind = "127.0.0.1";
  uint16_t port = 4932;  // 0: any free port (see Server::port())
  uint32_t max_frame_bytes = 64u << 20;
  /// Connections beyond this get an OVERLOADED error and are closed.
  size_t max_connections = 1024;
  /// Requests read from one connection and not yet answered; reading pauses at the limit.
  size_t max_in_flight_per_connection = 1024;
  /// Bytes of replies waiting to be sent on one connection (a client that does not read). Above
  /// it the session runs no further request and reads no more until the client catches up, so
  /// at most this plus one reply (at most max_frame_bytes) is buffered per connection.
  size_t max_pending_reply_bytes = 16u << 20;
};

class Session;
class ProduceCoalescer;

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
  asio::ip::tcp::acceptor acceptor_;
  uint16_t port_ = 0;
  mutable std::mutex mu_;
  std::set<std::shared_ptr<Session>> sessions_;
  std::atomic<uint64_t> next_connection_id_{1};  // a session's id: its subscription consumer id
  bool stopping_ = false;
  std::function<void()> on_stopped_;
};

}  // namespace higgins::server
