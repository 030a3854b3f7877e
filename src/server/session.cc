#include "server/session.h"

#include <spdlog/spdlog.h>

#include "protocol/messages.h"
#include "server/memory_release.h"
#include "server/produce_coalescer.h"
#include "server/read_buffer.h"
#include "server/server.h"
#include "server/wire_replies.h"

namespace higgins::server {
namespace {

// How often a session paused by a total (not by its own limits) looks again: nothing on its
// own connection tells it when others have made room.
constexpr auto kTotalsPollInterval = std::chrono::milliseconds(10);

}  // namespace

Session::Session(Server* server, ProduceCoalescer* coalescer, asio::ip::tcp::socket socket)
    : server_(server),
      coalescer_(coalescer),
      socket_(std::move(socket)),
      strand_(asio::make_strand(socket_.get_executor())),
      decoder_(server->options_.max_frame_bytes),
      account_(server->budget_),
      wake_(strand_),
      idle_timer_(strand_),
      last_activity_(std::chrono::steady_clock::now()) {
  connection_.id = server->next_connection_id_++;
}

void Session::Push(const higgins::wire::Message& message) {
  auto frame = protocol::SerializeFrame(message, server_->options_.max_frame_bytes);
  if (!frame.ok()) {
    // SubscriptionRequests::PushMessages sizes every push to fit, so this is a broker bug; the
    // consumer would wait for records that never come: say so loudly.
    spdlog::error("connection {}: a subscription push was dropped: {}", connection_.id,
                  frame.status().ToString());
    return;
  }
  account_.AddReply(frame->size());
  asio::post(strand_, [self = shared_from_this(), frame = *std::move(frame)]() mutable {
    if (self->closed_) {
      self->account_.ReleaseReply(frame.size());
      return;
    }
    self->pushes_.push_back(std::move(frame));
    if (!self->flush_scheduled_) {
      self->flush_scheduled_ = true;
      asio::post(self->strand_, [self] {
        self->flush_scheduled_ = false;
        self->MaybeWrite();
      });
    }
  });
}

void Session::Start() {
  // Pushes hold the session weakly: a closed session is not kept alive by its subscriptions.
  connection_.push =
      [weak = std::weak_ptr<Session>(shared_from_this())](const higgins::wire::Message& message) {
        if (auto self = weak.lock()) self->Push(message);
      };
  // Pushes stop while the unsent backlog is full (a consumer that does not read), and resume
  // once writes make room (the write completion calls ConnectionReady).
  connection_.ready = [weak = std::weak_ptr<Session>(shared_from_this())] {
    auto self = weak.lock();
    if (!self) return false;
    if (!self->ReplyBacklogFull()) return true;
    // Flag first, then look again: a write that made room in between either sees the flag
    // (and calls ConnectionReady) or is seen here.
    self->push_blocked_ = true;
    if (!self->ReplyBacklogFull()) {
      self->push_blocked_ = false;
      return true;
    }
    return false;
  };
  asio::co_spawn(
      strand_, [self = shared_from_this()] { return self->ReadLoop(); }, asio::detached);
  if (server_->options_.idle_timeout.count() > 0) {
    asio::post(strand_, [self = shared_from_this()] {
      self->ArmIdleTimer(self->server_->options_.idle_timeout);
    });
  }
}

void Session::ArmIdleTimer(std::chrono::steady_clock::duration after) {
  idle_timer_.expires_after(after);
  idle_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (!ec) self->OnIdleTimer();
  });
}

void Session::OnIdleTimer() {
  if (closed_ || reading_done_) return;
  const auto timeout = server_->options_.idle_timeout;
  const auto quiet = std::chrono::steady_clock::now() - last_activity_;
  if (quiet < timeout) {
    ArmIdleTimer(timeout - quiet);
    return;
  }
  // Work in progress is not idleness: a long query or a client that does not read its replies
  // is bounded by the account, not by this timer.
  const bool busy =
      !slots_.empty() || write_in_progress_ || !pushes_.empty() || decoder_.buffered_bytes() > 0;
  if (consumer_ || busy) {
    ArmIdleTimer(timeout);
    return;
  }
  spdlog::debug("connection {} closed: idle for {} ms (--idle-timeout)", connection_.id,
                std::chrono::duration_cast<std::chrono::milliseconds>(quiet).count());
  reading_done_ = true;
  boost::system::error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_receive, ignored);
  socket_.cancel(ignored);
  wake_.cancel();
  MaybeClose();
}

void Session::StopReading() {
  asio::post(strand_, [self = shared_from_this()] {
    self->reading_done_ = true;
    boost::system::error_code ec;
    self->socket_.shutdown(asio::ip::tcp::socket::shutdown_receive, ec);
    self->wake_.cancel();
    self->idle_timer_.cancel();
    self->MaybeClose();
  });
}

void Session::RejectAndClose(const std::string& message) {
  asio::post(strand_, [self = shared_from_this(), message] {
    self->reading_done_ = true;
    self->Complete(self->ReserveSlot(), self->Frame(MakeErrorMessage(
                                            higgins::wire::Error::OVERLOADED, message, nullptr)));
  });
}

std::string Session::Frame(const higgins::wire::Message& message) const {
  auto frame = protocol::SerializeFrame(message, server_->options_.max_frame_bytes);
  if (frame.ok()) return *std::move(frame);
  // A reply whose list of errors is too long keeps the lines that fit.
  higgins::wire::Message cut = message;
  if (CutErrorsToFit(&cut, server_->options_.max_frame_bytes)) {
    auto cut_frame = protocol::SerializeFrame(cut, server_->options_.max_frame_bytes);
    if (cut_frame.ok()) return *std::move(cut_frame);
  }
  // Only a reply over the frame limit gets here; the handler sizes its query, metadata and
  // subscription replies to fit, so this is a last resort that still answers the request.
  const higgins::wire::Message* request = nullptr;
  higgins::wire::Message error =
      MakeErrorMessage(higgins::wire::Error::UNKNOWN,
                       "the reply could not be sent: " + frame.status().message(), request);
  if (message.has_correlationid()) error.set_correlationid(message.correlationid());
  return *protocol::SerializeFrame(error, server_->options_.max_frame_bytes);
}

uint64_t Session::ReserveSlot() {
  slots_.emplace_back();
  return first_slot_ + slots_.size() - 1;
}

void Session::Dispatch(const std::string& body) {
  const uint64_t slot = ReserveSlot();
  auto request = protocol::ParseMessage(body);
  if (!request.ok()) {
    higgins::wire::Message error = MakeErrorMessage(higgins::wire::Error::MALFORMED_MESSAGE,
                                                    request.status().message(), nullptr);
    if (auto id = protocol::PeekCorrelationId(body)) error.set_correlationid(*id);
    Complete(slot, Frame(error));
    return;
  }
  // Counted until its reply is made: the parsed message holds about as many bytes as the frame.
  const size_t bytes = protocol::kFrameHeaderBytes + body.size();
  account_.AddRequest(bytes);
  Enqueue({slot, *std::move(request), bytes});
}

bool Session::ReplyBacklogFull() const {
  return account_.RepliesFull();
}

bool Session::ReadingPaused() const {
  return slots_.size() >= server_->options_.max_in_flight_per_connection ||
         account_.RequestsFull(decoder_.buffered_bytes()) || account_.RepliesFull();
}

void Session::ResumeAfterTotals() {
  if (closed_ || ReplyBacklogFull()) return;
  if (push_blocked_.exchange(false)) server_->handler_->ConnectionReady(connection_.id);
  DrainDeferred();
}

namespace {

/// Requests the handler runs on its administrative thread (RequestHandler::Handle): their effects
/// come after Handle returns, so requests behind them on the connection must wait for them.
bool IsAdministrative(higgins::wire::Message::Type type) {
  using M = higgins::wire::Message;
  return type == M::CREATECONFIGURATIONREQUEST || type == M::DELETECONFIGURATIONREQUEST ||
         type == M::UPLOADMODULEREQUEST || type == M::CREATESUBSCRIPTIONREQUEST ||
         type == M::DELETESUBSCRIPTIONREQUEST;
}

}  // namespace

bool Session::MustWait(higgins::wire::Message::Type type) const {
  if (ReplyBacklogFull()) return true;
  if (type == higgins::wire::Message::PRODUCEREQUEST) return admin_in_flight_ > 0;
  if (IsAdministrative(type)) return produces_in_flight_ > 0 || others_in_flight_ > 0;
  return produces_in_flight_ > 0 || admin_in_flight_ > 0;
}

void Session::Enqueue(Request request) {
  if (!deferred_.empty() || MustWait(request.message.type())) {
    deferred_.push_back(std::move(request));
    return;
  }
  Execute(std::move(request));
}

void Session::Execute(Request request) {
  const higgins::wire::Message::Type type = request.message.type();
  const bool produce = type == higgins::wire::Message::PRODUCEREQUEST;
  const bool admin = IsAdministrative(type);
  if (type == higgins::wire::Message::TAKERECORDSREQUEST) consumer_ = true;
  if (produce) {
    ++produces_in_flight_;
  } else {
    ++others_in_flight_;
    if (admin) ++admin_in_flight_;
  }
  const uint64_t slot = request.slot;
  auto on_reply = [self = shared_from_this(), slot, produce, admin,
                   request_bytes = request.bytes](const higgins::wire::Message& reply) {
    std::string frame = self->Frame(reply);
    // Counted here, not when the strand stores it: the next request may run before that.
    self->account_.AddReply(frame.size());
    self->account_.ReleaseRequest(request_bytes);
    asio::post(self->strand_, [self, slot, produce, admin, frame = std::move(frame)]() mutable {
      self->Complete(slot, std::move(frame), /*counted=*/true);
      if (produce) {
        --self->produces_in_flight_;
      } else {
        --self->others_in_flight_;
        if (admin) --self->admin_in_flight_;
      }
      self->DrainDeferred();
    });
  };
  if (produce) {
    // Gathered with this thread's other produces, to be committed together.
    coalescer_->Add({std::move(request.message), std::move(on_reply)});
    return;
  }
  server_->handler_->Handle(request.message, std::move(on_reply), &connection_);
}

void Session::DrainDeferred() {
  while (!deferred_.empty()) {
    if (MustWait(deferred_.front().message.type())) return;
    Request request = std::move(deferred_.front());
    deferred_.pop_front();
    Execute(std::move(request));
  }
}

void Session::Complete(uint64_t slot, std::string frame, bool counted) {
  // After a failed write the pending slots are dropped; late replies have nowhere to go.
  if (slot < first_slot_ || slot - first_slot_ >= slots_.size()) {
    if (counted) account_.ReleaseReply(frame.size());
    return;
  }
  if (!counted) account_.AddReply(frame.size());
  slots_[slot - first_slot_] = std::move(frame);
  // Write once the replies completing in this round of the strand are in: one send for many.
  if (!flush_scheduled_) {
    flush_scheduled_ = true;
    asio::post(strand_, [self = shared_from_this()] {
      self->flush_scheduled_ = false;
      self->MaybeWrite();
    });
  }
}

void Session::MaybeWrite() {
  if (write_in_progress_ || closed_) return;
  while (!slots_.empty() && slots_.front().has_value()) {
    writing_.push_back(std::move(*slots_.front()));
    slots_.pop_front();
    ++first_slot_;
  }
  while (!pushes_.empty()) {
    writing_.push_back(std::move(pushes_.front()));
    pushes_.pop_front();
  }
  if (writing_.empty()) {
    MaybeClose();
    return;
  }
  wake_.cancel();  // room for more requests
  std::vector<asio::const_buffer> buffers;
  buffers.reserve(writing_.size());
  for (const auto& f : writing_) buffers.push_back(asio::buffer(f));
  write_in_progress_ = true;
  asio::async_write(socket_, buffers,
                    asio::bind_executor(strand_, [self = shared_from_this()](
                                                     const boost::system::error_code& ec, size_t) {
                      self->write_in_progress_ = false;
                      size_t written = 0;
                      for (const auto& f : self->writing_) written += f.size();
                      self->account_.ReleaseReply(written);
                      self->writing_.clear();
                      // A large reply's buffers are not kept for the next one.
                      if (self->writing_.capacity() > 64)
                        std::vector<std::string>().swap(self->writing_);
                      if (ec) {
                        // The peer is gone: replies still to come are dropped.
                        self->reading_done_ = true;
                        self->first_slot_ += self->slots_.size();
                        self->slots_.clear();
                        for (const auto& f : self->pushes_) self->account_.ReleaseReply(f.size());
                        self->pushes_.clear();
                        for (const auto& r : self->deferred_)
                          self->account_.ReleaseRequest(r.bytes);
                        self->deferred_.clear();
                        boost::system::error_code ignored;
                        self->socket_.shutdown(asio::ip::tcp::socket::shutdown_receive, ignored);
                        self->wake_.cancel();
                        self->MaybeClose();
                        return;
                      }
                      self->last_activity_ = std::chrono::steady_clock::now();
                      // Room in the reply backlog: run deferred requests and read again.
                      if (!self->ReplyBacklogFull() && self->push_blocked_.exchange(false)) {
                        self->server_->handler_->ConnectionReady(self->connection_.id);
                      }
                      self->DrainDeferred();
                      self->wake_.cancel();
                      self->MaybeWrite();
                    }));
}

void Session::MaybeClose() {
  if (closed_ || !reading_done_ || !slots_.empty() || write_in_progress_) return;
  closed_ = true;
  for (const auto& f : pushes_) account_.ReleaseReply(f.size());
  pushes_.clear();
  idle_timer_.cancel();
  boost::system::error_code ec;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  // Its records in flight go back to the subscriptions, for their other consumers.
  server_->handler_->ConnectionClosed(connection_.id);
  server_->Remove(this);
  server_->memory_release_->Schedule();
}

asio::awaitable<void> Session::ReadLoop() {
  auto self = shared_from_this();
  boost::system::error_code ec;
  // Reads go into the thread's buffer, without blocking; when the socket has nothing, the session
  // waits for data by peeking at one byte, so an idle session holds no read buffer. (Not
  // async_wait: it is never tried at once, and the reactor's edge-triggered epoll reports no new
  // edge for bytes that were already waiting.)
  socket_.non_blocking(true, ec);
  while (!reading_done_) {
    if (ReadingPaused()) {
      // Replies being written, or requests answered, cancel the wait; room made by other
      // connections in a total is looked for now and then.
      const bool totals_only = account_.OnlyTotalsFull(decoder_.buffered_bytes()) &&
                               slots_.size() < server_->options_.max_in_flight_per_connection;
      if (totals_only) {
        wake_.expires_after(kTotalsPollInterval);
      } else {
        wake_.expires_at(asio::steady_timer::time_point::max());
      }
      boost::system::error_code ignored;
      co_await wake_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
      if (totals_only) ResumeAfterTotals();
      continue;
    }
    const std::span<uint8_t> buffer = ThreadReadBuffer();
    const size_t n = socket_.read_some(asio::buffer(buffer.data(), buffer.size()), ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again) {
      // The next read tells what the peek found (bytes, end of input or an error).
      co_await socket_.async_receive(asio::buffer(&peek_byte_, 1), asio::socket_base::message_peek,
                                     asio::redirect_error(asio::use_awaitable, ec));
      continue;
    }
    if (reading_done_) break;
    if (ec) {
      Status truncated = decoder_.Finish();
      if (ec == asio::error::eof && !truncated.ok()) {
        Complete(ReserveSlot(), Frame(MakeErrorMessage(higgins::wire::Error::TRUNCATED_FRAME,
                                                       truncated.message(), nullptr)));
      }
      break;
    }
    last_activity_ = std::chrono::steady_clock::now();
    Status status = decoder_.Consume({buffer.data(), n});
    while (auto body = decoder_.Next()) Dispatch(*body);
    if (!status.ok()) {
      Complete(ReserveSlot(), Frame(MakeErrorMessage(higgins::wire::Error::FRAME_TOO_LARGE,
                                                     status.message(), nullptr)));
      break;
    }
  }
  reading_done_ = true;
  MaybeClose();
}

}  // namespace higgins::server
