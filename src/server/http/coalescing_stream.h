#pragma once

#include <boost/beast/core.hpp>
#include <boost/beast/websocket/teardown.hpp>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "server/asio.h"

namespace higgins::server::http {

/// The socket layer under a channel's WebSocket stream (websocket::stream<CoalescingStream>),
/// through which every byte of the connection leaves, in order.
///
/// The channel appends whole messages already framed by Beast (EncodeTextFrame: a stream's
/// tail frames each record once for all its readers), by reference: the same bytes serve every
/// reader, never copied. Flush hands everything appended to the socket in one gathering send
/// on the non-blocking socket, and finishes when the socket can take the rest (a reactor wait,
/// then more sends). Beast's own writes on the channel's stream (the handshake's answer, pings,
/// pongs, the close frame) go through async_write_some: each is copied whole into a message of
/// its own in the same queue, so nothing ever splits a frame.
///
/// Not thread-safe: used on the connection's strand only. The state is shared with the wait in
/// progress, so the socket stays open until it completes.
class CoalescingStream {
 public:
  using executor_type = boost::beast::tcp_stream::executor_type;
  using next_layer_type = boost::beast::tcp_stream;
  using Waiter = std::function<void(boost::beast::error_code)>;
  using Bytes = std::shared_ptr<const std::string>;

  explicit CoalescingStream(boost::beast::tcp_stream stream)
      : state_(std::make_shared<State>(std::move(stream))) {}

  executor_type get_executor() noexcept { return state_->stream.get_executor(); }
  next_layer_type& next_layer() noexcept { return state_->stream; }

  /// Queues `frames`: whole WebSocket messages as EncodeTextFrame makes them, kept by
  /// reference until sent. The channel makes no message write through Beast (only control
  /// frames, which are queued whole), so no message is ever half queued when this runs.
  void Append(Bytes frames) { Append(state_, std::move(frames)); }
  /// Sends what was queued, as far as the socket takes it now; the rest when it can.
  void Flush() { Flush(state_); }
  /// Drops the queued messages the socket has not started on (a message it has taken a part of
  /// is finished): a channel closing a reader that is too slow sends its close frame without
  /// the backlog.
  void DiscardPending();
  /// Bytes queued and not yet taken by the socket.
  size_t queued_bytes() const { return state_->queued_bytes; }
  /// The error of the first socket write that failed (then every later write fails).
  boost::beast::error_code error() const { return state_->error; }

  template <typename MutableBuffers, typename ReadHandler>
  auto async_read_some(const MutableBuffers& buffers, ReadHandler&& handler) {
    return state_->stream.async_read_some(buffers, std::forward<ReadHandler>(handler));
  }

  /// Beast's writes: copied whole into the queue, sent with the rest, completed once queued.
  template <typename ConstBuffers, typename WriteHandler>
  auto async_write_some(const ConstBuffers& buffers, WriteHandler&& handler) {
    return asio::async_initiate<WriteHandler, void(boost::beast::error_code, size_t)>(
        [state = state_](auto completion, const ConstBuffers& bytes) {
          auto executor = asio::get_associated_executor(completion, state->stream.get_executor());
          boost::beast::error_code ec = state->error;
          size_t n = 0;
          if (!ec) {
            auto copy = std::make_shared<std::string>();
            copy->reserve(asio::buffer_size(bytes));
            for (auto it = asio::buffer_sequence_begin(bytes);
                 it != asio::buffer_sequence_end(bytes); ++it) {
              const asio::const_buffer b = *it;
              copy->append(static_cast<const char*>(b.data()), b.size());
            }
            n = copy->size();
            Append(state, std::move(copy));
            Flush(state);
          }
          asio::post(executor,
                     [completion = std::move(completion), ec, n]() mutable { completion(ec, n); });
        },
        handler, buffers);
  }

  /// Runs `then` on the strand once everything queued so far has gone to the socket (or a
  /// write failed).
  void AfterFlush(Waiter then) { AfterFlush(state_, std::move(then)); }

 private:
  struct State {
    explicit State(boost::beast::tcp_stream s) : stream(std::move(s)) {}
    boost::beast::tcp_stream stream;
    std::deque<Bytes> queue;         // whole messages, oldest first
    size_t front_sent = 0;           // bytes of queue.front() the socket has taken
    size_t queued_bytes = 0;         // of the queue, less front_sent
    uint64_t appended = 0;           // bytes ever queued (less those discarded)
    uint64_t sent = 0;               // bytes ever taken by the socket
    bool waiting = false;            // for the socket to take more
    bool non_blocking = false;       // the socket's own mode, set on the first send
    boost::beast::error_code error;  // of the first failed send: every later one fails
    std::deque<std::pair<uint64_t, Waiter>> waiters;  // until `sent` reaches the first
  };

  static void Append(const std::shared_ptr<State>& state, Bytes frames);
  static void AfterFlush(const std::shared_ptr<State>& state, Waiter then);
  static void Flush(const std::shared_ptr<State>& state);
  static void Finish(const std::shared_ptr<State>& state, boost::beast::error_code ec);
  static void Wake(const std::shared_ptr<State>& state);

  std::shared_ptr<State> state_;
};

/// The WebSocket closing handshake's last step: once the close frame has gone to the socket,
/// the connection is shut down as a tcp_stream's is.
template <typename TeardownHandler>
void async_teardown(boost::beast::role_type role, CoalescingStream& stream,
                    TeardownHandler&& handler) {
  auto box =
      std::make_shared<std::decay_t<TeardownHandler>>(std::forward<TeardownHandler>(handler));
  stream.AfterFlush([role, &stream, box](boost::beast::error_code) {
    using boost::beast::async_teardown;
    async_teardown(role, stream.next_layer(), std::move(*box));
  });
}

inline void teardown(boost::beast::role_type role, CoalescingStream& stream,
                     boost::beast::error_code& ec) {
  using boost::beast::teardown;
  teardown(role, stream.next_layer(), ec);
}

}  // namespace higgins::server::http
