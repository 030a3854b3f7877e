#pragma once

#include <boost/beast/core.hpp>
#include <boost/beast/websocket/teardown.hpp>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "server/asio.h"

namespace higgins::server::http {

/// The socket layer under a channel's WebSocket stream (websocket::stream<CoalescingStream>),
/// through which every byte of the connection leaves, in order.
///
/// The channel appends whole messages already framed by Beast (EncodeTextFrame: a stream's
/// tail frames each record once for all its readers) and calls Flush: whatever was appended
/// since the last socket write leaves in one write, tried at once on the non-blocking socket
/// and finished asynchronously when the socket buffer is full. Beast's own writes on the
/// channel's stream (the handshake's answer, pings, pongs, the close frame) go through
/// async_write_some: each is copied whole into the same buffer, so nothing ever splits a frame.
///
/// Not thread-safe: used on the connection's strand only. The state is shared with the write in
/// progress, so the socket stays open until it completes.
class CoalescingStream {
 public:
  using executor_type = boost::beast::tcp_stream::executor_type;
  using next_layer_type = boost::beast::tcp_stream;
  using Waiter = std::function<void(boost::beast::error_code)>;

  explicit CoalescingStream(boost::beast::tcp_stream stream)
      : state_(std::make_shared<State>(std::move(stream))) {}

  executor_type get_executor() noexcept { return state_->stream.get_executor(); }
  next_layer_type& next_layer() noexcept { return state_->stream; }

  /// Appends `frames`: whole WebSocket messages as EncodeTextFrame makes them. The channel makes
  /// no message write through Beast (only control frames, which are written whole), so no
  /// message is ever half written when this runs.
  void Append(std::string_view frames) { state_->pending.append(frames); }
  /// Starts writing what was appended, unless a write is under way (its end writes the rest).
  void Flush() { Flush(state_); }
  /// Drops what was appended and not yet handed to the socket (whole messages only): a channel
  /// closing a reader that is too slow sends its close frame without the backlog.
  void DiscardPending();
  /// Bytes appended and not yet taken by the socket.
  size_t queued_bytes() const { return state_->pending.size() + state_->writing.size(); }
  /// The error of the first socket write that failed (then every later write fails).
  boost::beast::error_code error() const { return state_->error; }

  template <typename MutableBuffers, typename ReadHandler>
  auto async_read_some(const MutableBuffers& buffers, ReadHandler&& handler) {
    return state_->stream.async_read_some(buffers, std::forward<ReadHandler>(handler));
  }

  /// Beast's writes: copied whole, written with what is pending, completed once copied.
  template <typename ConstBuffers, typename WriteHandler>
  auto async_write_some(const ConstBuffers& buffers, WriteHandler&& handler) {
    return asio::async_initiate<WriteHandler, void(boost::beast::error_code, size_t)>(
        [state = state_](auto completion, const ConstBuffers& bytes) {
          auto executor = asio::get_associated_executor(completion, state->stream.get_executor());
          boost::beast::error_code ec = state->error;
          size_t n = 0;
          if (!ec) {
            for (auto it = asio::buffer_sequence_begin(bytes);
                 it != asio::buffer_sequence_end(bytes); ++it) {
              const asio::const_buffer b = *it;
              state->pending.append(static_cast<const char*>(b.data()), b.size());
              n += b.size();
            }
            Flush(state);
          }
          asio::post(executor,
                     [completion = std::move(completion), ec, n]() mutable { completion(ec, n); });
        },
        handler, buffers);
  }

  /// Runs `then` on the strand once everything appended so far has gone to the socket (or a
  /// write failed).
  void AfterFlush(Waiter then) { AfterFlush(state_, std::move(then)); }

 private:
  struct State {
    explicit State(boost::beast::tcp_stream s) : stream(std::move(s)) {}
    boost::beast::tcp_stream stream;
    std::string pending;  // appended, not yet handed to the socket
    std::string writing;  // the rest of the asynchronous write under way
    bool flushing = false;
    bool non_blocking = false;           // the socket's own mode, set on the first write
    boost::beast::error_code error;      // of the first failed write: every later one fails
    std::deque<Waiter> waiters;          // for the bytes of `pending`
    std::deque<Waiter> writing_waiters;  // for the bytes of `writing`
  };

  static void AfterFlush(const std::shared_ptr<State>& state, Waiter then);
  static void Flush(const std::shared_ptr<State>& state);
  static void Finish(const std::shared_ptr<State>& state, boost::beast::error_code ec);

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
