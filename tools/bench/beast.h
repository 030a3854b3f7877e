#pragma once

// Boost.Asio and Boost.Beast for the load generator's HTTP and WebSocket clients (the broker's
// flavour of asio: src/server/asio.h), under short names.

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>, which must
// come first (and clang-format's include sorting must leave it there).
// clang-format off
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
// clang-format on

namespace higgins::bench {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace beast_http = boost::beast::http;
namespace websocket = boost::beast::websocket;

}  // namespace higgins::bench
