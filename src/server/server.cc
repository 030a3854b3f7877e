#include "server/server.h"

#include <spdlog/spdlog.h>

#include "server/accept_loop.h"
#include "server/listen.h"
#include "server/memory_release.h"
#include "server/produce_coalescer.h"
#include "server/session.h"

namespace higgins::server {

Server::Server(std::vector<asio::io_context*> contexts, RequestHandler* handler,
               ServerOptions options)
    : io_(*contexts.at(0)),
      contexts_(std::move(contexts)),
      handler_(handler),
      options_(std::move(options)),
      own_budget_(options_.budget ? nullptr : std::make_unique<ByteBudget>(options_.byte_limits)),
      budget_(options_.budget ? options_.budget : own_budget_.get()),
      memory_release_(std::make_shared<MemoryRelease>(io_)),
      acceptor_(io_) {
  for (asio::io_context* context : contexts_) {
    coalescers_.push_back(std::make_shared<ProduceCoalescer>(*context, handler_));
  }
}

Server::~Server() = default;

Status Server::Start() {
  HIGGINS_RETURN_IF_ERROR(Listen(&acceptor_, options_.bind, options_.port, ""));
  port_ = acceptor_.local_endpoint().port();
  asio::co_spawn(io_, Accept(), asio::detached);
  return Status::OK();
}

asio::awaitable<void> Server::Accept() {
  return AcceptConnections(
      acceptor_, contexts_, &next_context_, /*on_strand=*/false, sessions_,
      options_.max_connections, "",
      [this](asio::ip::tcp::socket socket, size_t context_index) {
        return std::make_shared<Session>(this, coalescers_[context_index].get(), std::move(socket));
      },
      [](const std::shared_ptr<Session>& session, size_t open) {
        session->RejectAndClose("the broker has " + std::to_string(open) +
                                " connections open, its limit (--max-connections)");
      });
}

void Server::Remove(Session* session) {
  sessions_.Remove(session);
}

void Server::Stop(std::function<void()> done) {
  StopListening(io_, acceptor_, sessions_, std::move(done));
}

size_t Server::connection_count() const {
  return sessions_.size();
}

}  // namespace higgins::server
