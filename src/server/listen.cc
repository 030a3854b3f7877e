#include "server/listen.h"

namespace higgins::server {

Status Listen(asio::ip::tcp::acceptor* acceptor, const std::string& bind, uint16_t port,
              std::string_view name) {
  const std::string prefix = name.empty() ? std::string() : std::string(name) + " ";
  boost::system::error_code ec;
  auto address = asio::ip::make_address(bind, ec);
  if (ec) return Status::InvalidArgument(prefix + "bind address '" + bind + "': " + ec.message());
  asio::ip::tcp::endpoint endpoint(address, port);
  acceptor->open(endpoint.protocol(), ec);
  if (!ec) acceptor->set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor->bind(endpoint, ec);
  if (!ec) acceptor->listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return Status::IOError((name.empty() ? "listen" : prefix + "listener") + " on " + bind + ":" +
                           std::to_string(port) + ": " + ec.message());
  }
  return Status::OK();
}

}  // namespace higgins::server
