#include "server/http/coalescing_stream.h"

namespace higgins::server::http {

void CoalescingStream::DiscardPending() {
  const std::shared_ptr<State>& state = state_;
  state->pending.clear();
  for (Waiter& waiter : state->waiters) {
    if (state->flushing) {
      state->writing_waiters.push_back(std::move(waiter));  // their bytes before the discarded
    } else {
      asio::post(state->stream.get_executor(), [waiter = std::move(waiter)] { waiter({}); });
    }
  }
  state->waiters.clear();
}

void CoalescingStream::AfterFlush(const std::shared_ptr<State>& state, Waiter then) {
  if (state->error || (state->pending.empty() && !state->flushing)) {
    asio::post(state->stream.get_executor(),
               [then = std::move(then), ec = state->error] { then(ec); });
    return;
  }
  if (state->pending.empty()) {
    state->writing_waiters.push_back(std::move(then));  // all of it is in the write under way
    return;
  }
  state->waiters.push_back(std::move(then));
  Flush(state);
}

void CoalescingStream::Flush(const std::shared_ptr<State>& state) {
  if (state->flushing || state->pending.empty() || state->error) return;
  auto& socket = state->stream.socket();
  boost::system::error_code ec;
  if (!state->non_blocking) {
    socket.non_blocking(true, ec);  // a write the socket cannot take at once must not block
    if (ec) return Finish(state, ec);
    state->non_blocking = true;
  }
  // Most of the time the socket buffer takes everything: one send, no completion to run.
  const size_t n = socket.write_some(asio::buffer(state->pending), ec);
  if (ec && ec != asio::error::would_block && ec != asio::error::try_again) {
    return Finish(state, ec);
  }
  if (n == state->pending.size()) {
    state->pending.clear();
    auto satisfied = std::move(state->waiters);
    state->waiters.clear();
    for (Waiter& waiter : satisfied) {
      asio::post(state->stream.get_executor(), [waiter = std::move(waiter)] { waiter({}); });
    }
    return;
  }
  // The rest when the socket can take it.
  state->flushing = true;
  state->writing.assign(state->pending, n);
  state->pending.clear();
  state->writing_waiters = std::move(state->waiters);
  state->waiters.clear();
  asio::async_write(socket, asio::buffer(state->writing),
                    [state](boost::beast::error_code write_ec, size_t) {
                      state->flushing = false;
                      state->writing.clear();
                      if (write_ec) return Finish(state, write_ec);
                      auto satisfied = std::move(state->writing_waiters);
                      state->writing_waiters.clear();
                      for (Waiter& waiter : satisfied) waiter({});
                      Flush(state);  // what was appended meanwhile
                    });
}

void CoalescingStream::Finish(const std::shared_ptr<State>& state, boost::beast::error_code ec) {
  if (!state->error) state->error = ec;
  state->pending.clear();
  auto failed = std::move(state->writing_waiters);
  state->writing_waiters.clear();
  for (Waiter& waiter : state->waiters) failed.push_back(std::move(waiter));
  state->waiters.clear();
  for (Waiter& waiter : failed) {
    asio::post(state->stream.get_executor(), [waiter = std::move(waiter), ec] { waiter(ec); });
  }
}

}  // namespace higgins::server::http
