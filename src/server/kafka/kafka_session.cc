#include "server/kafka/kafka_session.h"

#include <spdlog/spdlog.h>

#include "server/kafka/kafka_handler.h"
#include "server/kafka/kafka_listener.h"
#include "server/read_buffer.h"

namespace higgins::server::kafka {
namespace {

// How often a session stopped by a total of the budget looks again.
constexpr auto kTotalsPollInterval = std::chrono::milliseconds(10);

// The handler's answer to `body`, delivered on the session's strand (`executor`). Not a coroutine
// itself: the awaitable that async_initiate returns holds the arguments until it is awaited
// (a coroutine taking them by value met a GCC 12 bug that destroyed its copies twice).
template <typename Executor>
auto Answer(KafkaHandler* handler, std::string body, Executor executor) {
  return asio::async_initiate<decltype(asio::use_awaitable), void(KafkaReply)>(
      // NOLINTNEXTLINE(performance-unnecessary-value-param): moved into Handle below
      [handler](auto completion, std::string request, Executor on) {
        // std::function needs a copyable callable: the completion moves into a shared box.
        auto box = std::make_shared<decltype(completion)>(std::move(completion));
        handler->Handle(std::move(request), on, [box, on](KafkaReply reply) {
          asio::post(on, [box, reply = std::move(reply)]() mutable { (*box)(std::move(reply)); });
        });
      },
      asio::use_awaitable, std::move(body), std::move(executor));
}

}  // namespace

KafkaSession::KafkaSession(KafkaListener* listener, asio::ip::tcp::socket socket, uint64_t id)
    : listener_(listener),
      socket_(std::move(socket)),
      strand_(asio::make_strand(socket_.get_executor())),
      id_(id),
      decoder_(listener->options_.max_frame_bytes),
      account_(listener->budget_),
      wait_(strand_),
      idle_timer_(strand_),
      last_activity_(std::chrono::steady_clock::now()) {}

void KafkaSession::Start() {
  asio::co_spawn(
      strand_, [self = shared_from_this()] { return self->Run(); }, asio::detached);
  if (listener_->options_.idle_timeout.count() > 0) {
    asio::post(strand_, [self = shared_from_this()] {
      self->ArmIdleTimer(self->listener_->options_.idle_timeout);
    });
  }
}

void KafkaSession::StopReading() {
  asio::post(strand_, [self = shared_from_this()] {
    self->stopping_ = true;
    boost::system::error_code ignored;
    self->socket_.shutdown(asio::ip::tcp::socket::shutdown_receive, ignored);
    self->wait_.cancel();
    self->idle_timer_.cancel();
  });
}

void KafkaSession::ArmIdleTimer(std::chrono::steady_clock::duration after) {
  idle_timer_.expires_after(after);
  idle_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (!ec) self->OnIdleTimer();
  });
}

void KafkaSession::OnIdleTimer() {
  if (closed_ || stopping_) return;
  const auto timeout = listener_->options_.idle_timeout;
  const auto quiet = std::chrono::steady_clock::now() - last_activity_;
  if (quiet < timeout || busy_ || decoder_.buffered_bytes() > 0) {
    ArmIdleTimer(quiet < timeout ? timeout - quiet : timeout);
    return;
  }
  spdlog::debug("Kafka connection {} closed: idle for {} ms (--idle-timeout)", id_,
                std::chrono::duration_cast<std::chrono::milliseconds>(quiet).count());
  stopping_ = true;
  boost::system::error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_receive, ignored);
  socket_.cancel(ignored);
}

asio::awaitable<bool> KafkaSession::ReadMore() {
  for (;;) {
    if (stopping_) co_return false;
    if (account_.RequestsFull(decoder_.buffered_bytes())) {
      // Only a total can be full here (this connection holds at most one request): wait for
      // the other connections to make room.
      wait_.expires_after(kTotalsPollInterval);
      boost::system::error_code ignored;
      co_await wait_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
      continue;
    }
    boost::system::error_code ec;
    const std::span<uint8_t> buffer = ThreadReadBuffer();
    const size_t n = socket_.read_some(asio::buffer(buffer.data(), buffer.size()), ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again) {
      // The peek returns once bytes, the end or an error are there; the next read tells which
      // (session.cc says why not async_wait).
      co_await socket_.async_receive(asio::buffer(&peek_byte_, 1), asio::socket_base::message_peek,
                                     asio::redirect_error(asio::use_awaitable, ec));
      continue;
    }
    if (ec || stopping_) {
      if (ec && ec != asio::error::eof && ec != asio::error::operation_aborted) {
        spdlog::debug("Kafka connection {}: read failed: {}", id_, ec.message());
      }
      co_return false;
    }
    last_activity_ = std::chrono::steady_clock::now();
    Status status = decoder_.Consume({buffer.data(), n});
    if (!status.ok()) {
      // Frames completed before the oversized one are still answered.
      spdlog::info("Kafka connection {} closed: {}", id_, status.message());
      stopping_ = true;
    }
    co_return true;
  }
}

asio::awaitable<void> KafkaSession::Run() {
  auto self = shared_from_this();
  boost::system::error_code ec;
  socket_.non_blocking(true, ec);
  for (;;) {
    std::optional<std::string> body = decoder_.Next();
    if (!body) {
      if (co_await ReadMore()) continue;
      break;
    }
    const size_t request_bytes = protocol::kFrameHeaderBytes + body->size();
    account_.AddRequest(request_bytes);
    busy_ = true;
    KafkaReply reply = co_await Answer(listener_->handler_, *std::move(body), strand_);
    account_.ReleaseRequest(request_bytes);
    if (!reply.frame.empty()) {
      account_.AddReply(reply.frame.size());
      co_await asio::async_write(socket_, asio::buffer(reply.frame),
                                 asio::redirect_error(asio::use_awaitable, ec));
      account_.ReleaseReply(reply.frame.size());
      last_activity_ = std::chrono::steady_clock::now();
    }
    busy_ = false;
    if (ec) break;
    if (reply.close) {
      spdlog::info("Kafka connection {} closed: {}", id_, reply.close_reason);
      break;
    }
  }
  Close();
}

void KafkaSession::Close() {
  if (closed_) return;
  closed_ = true;
  idle_timer_.cancel();
  wait_.cancel();
  boost::system::error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
  listener_->Remove(this);
}

}  // namespace higgins::server::kafka
