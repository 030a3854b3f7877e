#pragma once

#include <spdlog/spdlog.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "server/asio.h"
#include "server/session_set.h"

namespace higgins::server {

/// Accepts connections on `acceptor` until it is closed or `sessions` stops: the loop of every
/// listener (native, Kafka, HTTP). Each socket goes to the next of `contexts`, round-robin
/// (`*next` counts them), on a strand of it when `on_strand`, with TCP_NODELAY set;
/// `make(socket, index)` makes its session (`index`: of its context). `sessions` admits it
/// unless `max_connections` are open, and it is started; over the limit `refuse(session, open)`
/// answers it instead, and it never starts. `name` opens the log lines ("Kafka", "HTTP"; empty
/// for the native listener). The caller keeps every argument passed by reference alive until
/// the loop returns.
template <typename Session, typename Make, typename Refuse>
asio::awaitable<void> AcceptConnections(asio::ip::tcp::acceptor& acceptor,
                                        const std::vector<asio::io_context*>& contexts,
                                        size_t* next, bool on_strand, SessionSet<Session>& sessions,
                                        size_t max_connections, std::string name, Make make,
                                        Refuse refuse) {
  const std::string prefix = name.empty() ? std::string() : name + " ";
  while (true) {
    const size_t index = (*next)++ % contexts.size();
    asio::io_context& context = *contexts[index];
    asio::ip::tcp::socket socket(on_strand ? asio::any_io_executor(asio::make_strand(context))
                                           : asio::any_io_executor(context.get_executor()));
    boost::system::error_code ec;
    co_await acceptor.async_accept(socket, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      if (sessions.stopping() || ec == asio::error::operation_aborted) co_return;
      spdlog::warn("{}accept failed: {}", name.empty() ? "" : prefix + "listener: ", ec.message());
      continue;
    }
    socket.set_option(asio::ip::tcp::no_delay(true), ec);
    std::shared_ptr<Session> session = make(std::move(socket), index);
    size_t open = 0;
    const auto admit = sessions.Add(session, max_connections, &open);
    if (admit == SessionSet<Session>::Admit::kStopping) co_return;
    if (admit == SessionSet<Session>::Admit::kFull) {
      spdlog::warn("{}connection refused: {} connections open, the limit", prefix, open);
      refuse(session, open);
      continue;
    }
    // Outside the lock: the session may run at once on this thread, and even end (Remove).
    session->Start();
  }
}

/// A listener's graceful stop: `sessions` admits no more, the acceptor is closed on `io` (its
/// thread), after `also` when given, every open session stops reading, and `done` runs once the
/// last has closed (here, at once, when none is open).
template <typename Session>
void StopListening(asio::io_context& io, asio::ip::tcp::acceptor& acceptor,
                   SessionSet<Session>& sessions, std::function<void()> done,
                   std::function<void()> also = {}) {
  auto stopping = sessions.Stop(std::move(done));
  asio::post(io, [&acceptor, also = std::move(also)] {
    if (also) also();
    boost::system::error_code ec;
    acceptor.close(ec);
  });
  for (auto& session : stopping.open) session->StopReading();
  if (stopping.run_now) stopping.run_now();
}

}  // namespace higgins::server
