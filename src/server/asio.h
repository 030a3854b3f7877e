#pragma once

// Boost.Asio under the short name `asio`, for every listener of the broker: the native and
// Kafka sessions and Boost.Beast's HTTP and WebSocket streams run on the same io_contexts
// (docs/threading.md), so there is one flavour of asio in the binary.

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio.hpp>

namespace asio = boost::asio;
