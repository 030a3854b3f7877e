#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "higgins/status.h"
#include "server/asio.h"

namespace higgins::server {

/// Opens `acceptor` on `bind`:`port` (an IPv4 or IPv6 address; port 0 picks a free one) with
/// SO_REUSEADDR, and starts listening. `name` names the listener in errors ("Kafka", "HTTP";
/// empty for the native one). Errors: InvalidArgument (not an address), IOError (the socket
/// calls, e.g. the port in use).
Status Listen(asio::ip::tcp::acceptor* acceptor, const std::string& bind, uint16_t port,
              std::string_view name);

}  // namespace higgins::server
