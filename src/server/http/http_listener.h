#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "higgins/result.h"
#include "server/asio.h"
#include "server/byte_budget.h"
#include "server/http/stream_tail.h"
#include "server/http/ws_channel.h"
#include "server/session_set.h"

namespace higgins::server {

class MemoryRelease;

namespace http {

class HttpApi;
class HttpSession;

struct HttpListenerOptions {
  std::string bind = "127.0.0.1";
  uint16_t port = 8080;  // 0: any free port (HttpListener::port())
  /// Request bodies above this are answered 413 and their connection closed.
  size_t max_body_bytes = size_t{64} << 20;
  /// Request line and headers above this are answered 431 and their connection closed.
  uint32_t max_header_bytes = 16 * 1024;
  /// Connections beyond this are answered 503 and closed.
  size_t max_connections = 1024;
  /// Shared with the broker's other listeners (docs/operations.md, "Connection memory").
  ByteBudget* budget = nullptr;
  /// A connection with no request in progress closes after this long without one; a request
  /// whose header or body takes longer to arrive is answered 408. Zero: never.
  std::chrono::milliseconds idle_timeout{std::chrono::minutes(10)};
  WsLimits ws_limits;
};

/// The HTTP listener (docs/http.md): one HttpSession per connection, spread over the
/// io_contexts round-robin, answering HTTP/1.1 requests with the HttpApi in order (keep-alive
/// and pipelining) and upgrading WebSocket requests.
class HttpListener {
 public:
  /// `contexts`: at least one, each run by its own thread and outliving the listener. `api`
  /// and `options.budget` outlive it too.
  HttpListener(std::vector<asio::io_context*> contexts, HttpApi* api, HttpListenerOptions options);
  ~HttpListener();

  /// Binds and starts accepting. Errors: InvalidArgument (address), IOError naming the
  /// address (in use...).
  Status Start();
  uint16_t port() const { return port_; }
  /// Stops accepting; each session finishes the request in progress and closes. `done` runs
  /// once every session has closed. Callable from any thread.
  void Stop(std::function<void()> done);
  size_t connection_count() const;

 private:
  friend class HttpSession;
  asio::awaitable<void> Accept();
  void Remove(HttpSession* session);

  asio::io_context& io_;
  std::vector<asio::io_context*> contexts_;
  size_t next_context_ = 0;
  HttpApi* api_;
  HttpListenerOptions options_;
  std::unique_ptr<ByteBudget> own_budget_;  // when options_.budget is null
  ByteBudget* budget_;
  std::shared_ptr<MemoryRelease> memory_release_;
  asio::ip::tcp::acceptor acceptor_;
  uint16_t port_ = 0;
  SessionSet<HttpSession> sessions_;
  StreamTails tails_;  // the WebSocket channels' live feeds
  std::atomic<uint64_t> next_connection_id_{1};
};

}  // namespace http
}  // namespace higgins::server
