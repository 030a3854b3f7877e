#pragma once

// Boost.Asio and Boost.Beast for the load generator's HTTP and WebSocket clients (the broker's
// flavour of asio: src/server/asio.h), under short names.

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>, which must
// come first (and clang-format's include sorting must leave it there).
// Beast 1.74's HTTP parser trips GCC 12's -Wmaybe-uninitialized on a boost::optional when built
// with the sanitizers (the ASan build): a false positive, silenced for every file that includes
// this one (the instantiations come at the end of the file, so no pop).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

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
