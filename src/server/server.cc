#include "server/server.h"

#include <spdlog/spdlog.h>

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
  while (true) {
    boost::system::error_code ec;
    const size_t context_index = next_context_++ % contexts_.size();
    asio::io_context& context = *contexts_[context_index];
    asio::ip::tcp::socket socket =
        co_await acceptor_.async_accept(context, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      if (sessions_.stopping() || ec == asio::error::operation_aborted) co_return;
      spdlog::warn("accept failed: {}", ec.message());
      continue;
    }
    socket.set_option(asio::ip::tcp::no_delay(true), ec);
    auto session =
        std::make_shared<Session>(this, coalescers_[context_index].get(), std::move(socket));
    size_t open = 0;
    const auto admit = sessions_.Add(session, options_.max_connections, &open);
    if (admit == SessionSet<Session>::Admit::kStopping) co_return;
    if (admit == SessionSet<Session>::Admit::kFull) {
      spdlog::warn("connection refused: {} connections open, the limit", open);
      session->RejectAndClose("the broker has " + std::to_string(open) +
                              " connections open, its limit (--max-connections)");
      continue;
    }
    // Outside the lock: the session may run at once on this thread, and even end (Remove).
    session->Start();
  }
}

void Server::Remove(Session* session) {
  sessions_.Remove(session);
}

void Server::Stop(std::function<void()> done) {
  auto stopping = sessions_.Stop(std::move(done));
  asio::post(io_, [this] {
    boost::system::error_code ec;
    acceptor_.close(ec);
  });
  for (auto& s : stopping.open) s->StopReading();
  if (stopping.run_now) stopping.run_now();
}

size_t Server::connection_count() const {
  return sessions_.size();
}

}  // namespace higgins::server
