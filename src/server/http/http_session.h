#pragma once

#include <boost/beast/core.hpp>
#include <cstdint>
#include <memory>
#include <string>

#include "server/asio.h"
#include "server/byte_budget.h"
#include "server/http/http_api.h"
#include "server/http/ws_channel.h"

namespace higgins::server::http {

class HttpListener;

/// One HTTP connection (docs/http.md, "Connections"): HTTP/1.1 requests read with Boost.Beast's
/// parser, answered by the HttpApi one at a time in order (keep-alive; pipelined requests wait
/// in the socket), until the client closes, asks to close, or sends what cannot be answered in
/// HTTP (then the answer is an error and the connection closes: 400 for a malformed request,
/// 413 for a body over the limit, 431 for headers over theirs, 408 for a request that stops
/// arriving). A WebSocket upgrade request of /v1/ws/... hands the connection to a WsChannel.
///
/// All members are used on the session's strand (the socket's executor).
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(HttpListener* listener, asio::ip::tcp::socket socket, uint64_t id);
  void Start();
  /// For a connection over the listener's limit, never added to it: answers 503 and closes.
  void Refuse(std::string reason);
  /// Stops after the request in progress. Thread-safe.
  void StopReading();

 private:
  asio::awaitable<void> Run();
  asio::awaitable<void> Write(Response response);
  /// A WebSocket request: refused in HTTP, or upgraded and served until it closes.
  asio::awaitable<void> RunWebSocket(Request upgrade);
  void Close();

  HttpListener* listener_;
  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  const uint64_t id_;
  ByteBudget::Account account_;
  asio::steady_timer wait_;  // while a total of the budget is reached
  bool stopping_ = false;
  bool closed_ = false;
  bool refused_ = false;
  std::shared_ptr<WsChannel> channel_;  // once upgraded: the socket is the channel's
};

}  // namespace higgins::server::http
