#include "server/session.h"

#include <spdlog/spdlog.h>

#include "protocol/messages.h"
#include "server/produce_coalescer.h"
#include "server/server.h"
#include "server/wire_replies.h"

namespace higgins::server {

Session::Session(Server* server, ProduceCoalescer* coalescer, asio::ip::tcp::socket socket)
    : server_(server),
      coalescer_(coalescer),
      socket_(std::move(socket)),
      strand_(asio::make_strand(socket_.get_executor())),
      decoder_(server->options_.max_frame_bytes),
      wake_(strand_) {
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
  pending_reply_bytes_ += frame->size();
  asio::post(strand_, [self = shared_from_this(), frame = *std::move(frame)]() mutable {
    if (self->closed_) {
      self->pending_reply_bytes_ -= frame.size();
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
  connection_.push = [weak = std::weak_ptr<Session>(shared_from_this())](
                         const higgins::wire::Message& message) {
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
}

void Session::StopReading() {
  asio::post(strand_, [self = shared_from_this()] {
    self->reading_done_ = true;
    asio::error_code ec;
    self->socket_.shutdown(asio::ip::tcp::socket::shutdown_receive, ec);
    self->wake_.cancel();
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
  Enqueue(slot, *std::move(request));
}

bool Session::ReplyBacklogFull() const {
  return pending_reply_bytes_.load(std::memory_order_relaxed) >=
         server_->options_.max_pending_reply_bytes;
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

void Session::Enqueue(uint64_t slot, higgins::wire::Message request) {
  if (!deferred_.empty() || MustWait(request.type())) {
    deferred_.emplace_back(slot, std::move(request));
    return;
  }
  Execute(slot, std::move(request));
}

void Session::Execute(uint64_t slot, higgins::wire::Message request) {
  const bool produce = request.type() == higgins::wire::Message::PRODUCEREQUEST;
  const bool admin = IsAdministrative(request.type());
  if (produce) {
    ++produces_in_flight_;
  } else {
    ++others_in_flight_;
    if (admin) ++admin_in_flight_;
  }
  auto on_reply = [self = shared_from_this(), slot, produce,
                   admin](const higgins::wire::Message& reply) {
    std::string frame = self->Frame(reply);
    // Counted here, not when the strand stores it: the next request may run before that.
    self->pending_reply_bytes_ += frame.size();
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
    coalescer_->Add({std::move(request), std::move(on_reply)});
    return;
  }
  server_->handler_->Handle(request, std::move(on_reply), &connection_);
}

void Session::DrainDeferred() {
  while (!deferred_.empty()) {
    if (MustWait(deferred_.front().second.type())) return;
    auto [slot, request] = std::move(deferred_.front());
    deferred_.pop_front();
    Execute(slot, std::move(request));
  }
}

void Session::Complete(uint64_t slot, std::string frame, bool counted) {
  // After a failed write the pending slots are dropped; late replies have nowhere to go.
  if (slot < first_slot_ || slot - first_slot_ >= slots_.size()) {
    if (counted) pending_reply_bytes_ -= frame.size();
    return;
  }
  if (!counted) pending_reply_bytes_ += frame.size();
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
  asio::async_write(
      socket_, buffers,
      asio::bind_executor(strand_, [self = shared_from_this()](const asio::error_code& ec, size_t) {
        self->write_in_progress_ = false;
        size_t written = 0;
        for (const auto& f : self->writing_) written += f.size();
        self->pending_reply_bytes_ -= written;
        self->writing_.clear();
        if (ec) {
          // The peer is gone: replies still to come are dropped.
          self->reading_done_ = true;
          self->first_slot_ += self->slots_.size();
          self->slots_.clear();
          for (const auto& f : self->pushes_) self->pending_reply_bytes_ -= f.size();
          self->pushes_.clear();
          self->deferred_.clear();
          asio::error_code ignored;
          self->socket_.shutdown(asio::ip::tcp::socket::shutdown_receive, ignored);
          self->wake_.cancel();
          self->MaybeClose();
          return;
        }
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
  for (const auto& f : pushes_) pending_reply_bytes_ -= f.size();
  pushes_.clear();
  asio::error_code ec;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  // Its records in flight go back to the subscriptions, for their other consumers.
  server_->handler_->ConnectionClosed(connection_.id);
  server_->Remove(this);
}

asio::awaitable<void> Session::ReadLoop() {
  auto self = shared_from_this();
  std::vector<uint8_t> buffer(size_t{64} * 1024);
  const size_t max_in_flight = server_->options_.max_in_flight_per_connection;
  while (!reading_done_) {
    if (slots_.size() >= max_in_flight || ReplyBacklogFull()) {
      wake_.expires_at(asio::steady_timer::time_point::max());
      asio::error_code ignored;
      co_await wake_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
      continue;
    }
    asio::error_code ec;
    size_t n = co_await socket_.async_read_some(asio::buffer(buffer),
                                                asio::redirect_error(asio::use_awaitable, ec));
    if (reading_done_) break;
    if (ec) {
      Status truncated = decoder_.Finish();
      if (ec == asio::error::eof && !truncated.ok()) {
        Complete(ReserveSlot(), Frame(MakeErrorMessage(higgins::wire::Error::TRUNCATED_FRAME,
                                                       truncated.message(), nullptr)));
      }
      break;
    }
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
