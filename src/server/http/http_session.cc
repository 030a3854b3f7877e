#include "server/http/http_session.h"

#include <spdlog/spdlog.h>

#include <boost/beast/http.hpp>

#include "server/http/http_listener.h"

// GCC 12 takes Boost 1.74's awaitable frames, which pair their own operator new and delete,
// for a mismatched pair (-Wmismatched-new-delete): a false positive.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace higgins::server::http {
namespace {

namespace beast = boost::beast;
using beast_http::field;
using beast_http::status;

// How often a session stopped by a total of the budget looks again.
constexpr auto kTotalsPollInterval = std::chrono::milliseconds(10);

// The API's answer to `request`, delivered on the session's strand (`executor`). Not a
// coroutine itself: the awaitable that async_initiate returns holds the arguments until it is
// awaited (coroutines taking arguments by value meet a GCC 12 bug: kafka_session.cc).
template <typename Executor>
auto Answer(HttpApi* api, Request request, Executor executor) {
  return asio::async_initiate<decltype(asio::use_awaitable), void(Response)>(
      // NOLINTNEXTLINE(performance-unnecessary-value-param): moved into Handle below
      [api](auto completion, Request r, Executor on) {
        auto box = std::make_shared<decltype(completion)>(std::move(completion));
        api->Handle(std::move(r), [box, on](Response response) {
          asio::post(
              on, [box, response = std::move(response)]() mutable { (*box)(std::move(response)); });
        });
      },
      asio::use_awaitable, std::move(request), std::move(executor));
}

// The answer to a request the parser refused: its status and message.
Response ParseError(const boost::system::error_code& ec, const HttpListenerOptions& limits) {
  const size_t max_body = limits.max_body_bytes;
  const uint32_t max_header = limits.max_header_bytes;
  if (ec == beast_http::error::body_limit) {
    return HttpApi::ErrorResponse(status::payload_too_large, "payload_too_large",
                                  "the request body is over the limit of " +
                                      std::to_string(max_body) + " bytes (--max-frame-bytes)",
                                  11);
  }
  if (ec == beast_http::error::header_limit) {
    return HttpApi::ErrorResponse(status::request_header_fields_too_large,
                                  "header_fields_too_large",
                                  "the request line and headers are over the limit of " +
                                      std::to_string(max_header) + " bytes",
                                  11);
  }
  return HttpApi::ErrorResponse(status::bad_request, "bad_request",
                                "malformed HTTP request: " + ec.message(), 11);
}

}  // namespace

HttpSession::HttpSession(HttpListener* listener, asio::ip::tcp::socket socket, uint64_t id)
    : listener_(listener),
      stream_(std::move(socket)),
      id_(id),
      account_(listener->budget_),
      wait_(stream_.get_executor()) {}

void HttpSession::Start() {
  asio::co_spawn(
      stream_.get_executor(), [self = shared_from_this()] { return self->Run(); }, asio::detached);
}

void HttpSession::Refuse(std::string reason) {
  refused_ = true;
  asio::co_spawn(
      stream_.get_executor(),
      [self = shared_from_this(), reason = std::move(reason)]() -> asio::awaitable<void> {
        // NOLINTNEXTLINE(performance-unnecessary-value-param)
        Response response =
            HttpApi::ErrorResponse(status::service_unavailable, "unavailable", reason, 11);
        response.keep_alive(false);
        response.set(field::retry_after, "1");
        self->stream_.expires_after(std::chrono::seconds(5));
        co_await self->Write(std::move(response));
        self->Close();
      },
      asio::detached);
}

void HttpSession::StopReading() {
  asio::post(stream_.get_executor(), [self = shared_from_this()] {
    self->stopping_ = true;
    if (self->channel_) {
      self->channel_->Stop();
      return;
    }
    boost::system::error_code ignored;
    self->stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_receive, ignored);
    self->wait_.cancel();
  });
}

asio::awaitable<void> HttpSession::Write(Response response) {
  boost::system::error_code ec;
  const size_t bytes = response.body().size();
  account_.AddReply(bytes);
  co_await beast_http::async_write(stream_, response,
                                   asio::redirect_error(asio::use_awaitable, ec));
  account_.ReleaseReply(bytes);
  if (ec) {
    spdlog::debug("HTTP connection {}: write failed: {}", id_, ec.message());
    stopping_ = true;
  }
}

asio::awaitable<void> HttpSession::Run() {
  auto self = shared_from_this();
  const HttpListenerOptions& options = listener_->options_;
  while (!stopping_) {
    if (account_.RequestsFull()) {
      wait_.expires_after(kTotalsPollInterval);
      boost::system::error_code ignored;
      co_await wait_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
      continue;
    }
    beast_http::request_parser<beast_http::string_body> parser;
    parser.header_limit(options.max_header_bytes);
    parser.body_limit(options.max_body_bytes);
    if (options.idle_timeout.count() > 0) {
      stream_.expires_after(options.idle_timeout);
    } else {
      stream_.expires_never();
    }
    boost::system::error_code ec;
    co_await beast_http::async_read_header(stream_, buffer_, parser,
                                           asio::redirect_error(asio::use_awaitable, ec));
    if (!ec && !parser.is_done()) {
      // curl asks before sending a large body (Expect: 100-continue, RFC 9110 section 10.1.1).
      if (beast::iequals(parser.get()[field::expect], "100-continue")) {
        beast_http::response<beast_http::empty_body> go_on(status::continue_, 11);
        co_await beast_http::async_write(stream_, go_on,
                                         asio::redirect_error(asio::use_awaitable, ec));
      }
      if (!ec) {
        co_await beast_http::async_read(stream_, buffer_, parser,
                                        asio::redirect_error(asio::use_awaitable, ec));
      }
    }
    if (ec) {
      if (ec == beast_http::error::end_of_stream || ec == asio::error::eof ||
          ec == asio::error::operation_aborted || ec == asio::error::connection_reset ||
          ec == beast_http::error::partial_message) {
        break;  // the client went (mid-request: nothing to answer it on)
      }
      if (ec == beast::error::timeout) {
        if (parser.got_some()) {
          Response response = HttpApi::ErrorResponse(
              status::request_timeout, "request_timeout",
              "the request did not arrive within " + std::to_string(options.idle_timeout.count()) +
                  " ms (--idle-timeout)",
              11);
          response.keep_alive(false);
          stream_.expires_after(std::chrono::seconds(5));
          co_await Write(std::move(response));
        }
        break;
      }
      Response response = ParseError(ec, options);
      response.keep_alive(false);
      spdlog::debug("HTTP connection {}: {}", id_, ec.message());
      stream_.expires_after(std::chrono::seconds(5));
      co_await Write(std::move(response));
      break;
    }
    Request request = parser.release();
    if (boost::beast::websocket::is_upgrade(request)) {
      co_await RunWebSocket(std::move(request));
      break;
    }
    const bool keep_alive = request.keep_alive();
    const size_t request_bytes = request.body().size();
    stream_.expires_never();
    account_.AddRequest(request_bytes);
    Response response =
        co_await Answer(listener_->api_, std::move(request), stream_.get_executor());
    account_.ReleaseRequest(request_bytes);
    response.keep_alive(keep_alive && !stopping_);
    const bool close = !response.keep_alive();
    co_await Write(std::move(response));
    if (close) break;
  }
  Close();
}

asio::awaitable<void> HttpSession::RunWebSocket(Request upgrade) {
  WsRefusal refusal;
  const int64_t now_s = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
  auto grant = DecideWebSocket(upgrade.target(), listener_->api_->verifier(), now_s, &refusal);
  if (!grant) {
    Response response =
        HttpApi::ErrorResponse(refusal.status, refusal.code, refusal.message, upgrade.version());
    response.keep_alive(false);
    spdlog::debug("HTTP connection {}: WebSocket refused: {} {}", id_,
                  static_cast<int>(refusal.status), refusal.message);
    co_await Write(std::move(response));
    co_return;
  }
  WsChannel::Context context;
  context.broker = listener_->api_->broker();
  context.tails = &listener_->tails_;
  context.limits = listener_->options_.ws_limits;
  channel_ = std::make_shared<WsChannel>(std::move(stream_), context, *std::move(grant), id_);
  if (stopping_) channel_->Stop();
  co_await channel_->Run(std::move(upgrade));
  channel_.reset();
}

void HttpSession::Close() {
  if (closed_) return;
  closed_ = true;
  wait_.cancel();
  boost::system::error_code ignored;
  // After an upgrade the socket went to the channel, which has closed it.
  if (stream_.socket().is_open()) {
    stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }
  if (!refused_) listener_->Remove(this);
}

}  // namespace higgins::server::http
