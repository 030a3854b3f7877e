#include "server/http/http_listener.h"

#include <spdlog/spdlog.h>

#include "server/accept_loop.h"
#include "server/http/http_session.h"
#include "server/listen.h"
#include "server/memory_release.h"

namespace higgins::server::http {

HttpListener::HttpListener(std::vector<asio::io_context*> contexts, HttpApi* api,
                           HttpListenerOptions options)
    : io_(*contexts.at(0)),
      contexts_(std::move(contexts)),
      api_(api),
      options_(std::move(options)),
      own_budget_(options_.budget ? nullptr : std::make_unique<ByteBudget>()),
      budget_(options_.budget ? options_.budget : own_budget_.get()),
      memory_release_(std::make_shared<MemoryRelease>(io_)),
      acceptor_(io_),
      tails_(api->broker(), io_.get_executor(), options_.ws_limits.push_interval) {}

HttpListener::~HttpListener() = default;

Status HttpListener::Start() {
  HIGGINS_RETURN_IF_ERROR(Listen(&acceptor_, options_.bind, options_.port, "HTTP"));
  port_ = acceptor_.local_endpoint().port();
  asio::co_spawn(io_, Accept(), asio::detached);
  return Status::OK();
}

asio::awaitable<void> HttpListener::Accept() {
  return AcceptConnections(
      acceptor_, contexts_, &next_context_, /*on_strand=*/true, sessions_, options_.max_connections,
      "HTTP",
      [this](asio::ip::tcp::socket socket, size_t) {
        return std::make_shared<HttpSession>(this, std::move(socket), next_connection_id_++);
      },
      [](const std::shared_ptr<HttpSession>& session, size_t open) {
        session->Refuse("the broker has " + std::to_string(open) +
                        " HTTP connections open, its limit (--max-connections)");
      });
}

void HttpListener::Remove(HttpSession* session) {
  memory_release_->Schedule();
  sessions_.Remove(session);
}

void HttpListener::Stop(std::function<void()> done) {
  StopListening(io_, acceptor_, sessions_, std::move(done));
}

size_t HttpListener::connection_count() const {
  return sessions_.size();
}

}  // namespace higgins::server::http
