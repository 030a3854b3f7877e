#include "server/http/coalescing_stream.h"

#include <algorithm>
#include <array>
#include <span>

namespace higgins::server::http {
namespace {

// Messages handed to one send at most (a gathering write; asio passes at most 64 buffers).
constexpr size_t kBuffersPerSend = 64;

}  // namespace

void CoalescingStream::Append(const std::shared_ptr<State>& state, Bytes frames) {
  if (state->error || frames->empty()) return;
  state->queued_bytes += frames->size();
  state->appended += frames->size();
  state->queue.push_back(std::move(frames));
}

void CoalescingStream::DiscardPending() {
  State& s = *state_;
  // A message the socket has taken a part of stays: the peer must get it whole.
  const size_t keep = s.front_sent > 0 ? 1 : 0;
  while (s.queue.size() > keep) {
    const size_t n = s.queue.back()->size();
    s.queued_bytes -= n;
    s.appended -= n;
    s.queue.pop_back();
  }
  for (auto& [until, waiter] : s.waiters) until = std::min(until, s.appended);
  Wake(state_);
}

void CoalescingStream::AfterFlush(const std::shared_ptr<State>& state, Waiter then) {
  if (state->error || state->sent >= state->appended) {
    asio::post(state->stream.get_executor(),
               [then = std::move(then), ec = state->error] { then(ec); });
    return;
  }
  state->waiters.emplace_back(state->appended, std::move(then));
  Flush(state);
}

void CoalescingStream::Flush(const std::shared_ptr<State>& state) {
  State& s = *state;
  if (s.waiting || s.error || s.queue.empty()) return;
  auto& socket = s.stream.socket();
  boost::system::error_code ec;
  if (!s.non_blocking) {
    socket.non_blocking(true, ec);  // a send the socket cannot take at once must not block
    if (ec) return Finish(state, ec);
    s.non_blocking = true;
  }
  while (!s.queue.empty()) {
    // The queued messages, the first from where the socket stopped.
    std::array<asio::const_buffer, kBuffersPerSend> buffers;
    size_t offered = 0;
    size_t count = 0;
    for (auto it = s.queue.begin(); it != s.queue.end() && count < buffers.size(); ++it) {
      const size_t skip = count == 0 ? s.front_sent : 0;
      buffers[count++] = asio::buffer((*it)->data() + skip, (*it)->size() - skip);
      offered += (*it)->size() - skip;
    }
    size_t n = count == 1 ? socket.write_some(buffers[0], ec)
                          : socket.write_some(std::span(buffers.data(), count), ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again) {
      n = 0;
    } else if (ec) {
      return Finish(state, ec);
    }
    const bool took_all = n == offered;
    s.sent += n;
    s.queued_bytes -= n;
    while (n > 0) {
      const size_t rest = s.queue.front()->size() - s.front_sent;
      if (n < rest) {
        s.front_sent += n;
        break;
      }
      n -= rest;
      s.front_sent = 0;
      s.queue.pop_front();
    }
    Wake(state);
    if (!took_all) {
      // The socket buffer is full: wait until it can take more.
      s.waiting = true;
      socket.async_wait(asio::socket_base::wait_write,
                        [state](const boost::system::error_code& wait_ec) {
                          state->waiting = false;
                          if (wait_ec) return Finish(state, wait_ec);
                          Flush(state);
                        });
      return;
    }
  }
}

void CoalescingStream::Finish(const std::shared_ptr<State>& state, boost::beast::error_code ec) {
  if (!state->error) state->error = ec;
  state->queue.clear();
  state->queued_bytes = 0;
  state->front_sent = 0;
  auto failed = std::move(state->waiters);
  state->waiters.clear();
  for (auto& [until, waiter] : failed) {
    asio::post(state->stream.get_executor(), [waiter = std::move(waiter), ec] { waiter(ec); });
  }
}

void CoalescingStream::Wake(const std::shared_ptr<State>& state) {
  while (!state->waiters.empty() && state->waiters.front().first <= state->sent) {
    asio::post(state->stream.get_executor(),
               [waiter = std::move(state->waiters.front().second)] { waiter({}); });
    state->waiters.pop_front();
  }
}

}  // namespace higgins::server::http
