#include "client/dispatcher.h"

#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <new>
#include <system_error>
#include <utility>
#include <vector>

#include "client/connection.h"
#include "client/reply_decoder.h"
#include "client/requests.h"
#include "protocol/messages.h"

namespace higgins::client_internal {

namespace {

constexpr size_t kReadChunkBytes = 256 << 10;

}  // namespace

Result<std::shared_ptr<Dispatcher>> Dispatcher::Start(UniqueFd fd, Options options) {
  HIGGINS_RETURN_IF_ERROR(SetSendTimeout(fd.get(), options.request_timeout));
  std::shared_ptr<Dispatcher> dispatcher(new Dispatcher(std::move(fd), std::move(options)));
  try {
    dispatcher->reader_ = std::thread([raw = dispatcher.get()] { raw->ReadLoop(); });
  } catch (const std::system_error& e) {
    return Status::IOError(std::string("cannot start the reader thread: ") + e.what());
  }
  return dispatcher;
}

Dispatcher::Dispatcher(UniqueFd fd, Options options)
    : fd_(std::move(fd)), options_(std::move(options)) {}

Dispatcher::~Dispatcher() {
  Stop();
}

bool Dispatcher::closed() const {
  std::lock_guard lock(mu_);
  return closed_;
}

std::shared_ptr<ReplySlot> Dispatcher::Send(higgins::wire::Message request) {
  const auto type = request.type();
  const uint64_t id = next_correlation_id_.fetch_add(1, std::memory_order_relaxed);
  request.set_correlationid(id);
  auto frame = protocol::SerializeFrame(request, options_.max_frame_bytes);
  if (!frame.ok()) {
    return ReplySlot::Failed(
        type, Status::ResourceExhausted(RequestName(type) + ": " + frame.status().message() +
                                        " (the client's max_frame_bytes)"));
  }
  auto slot = std::make_shared<ReplySlot>(type, weak_from_this());
  {
    std::lock_guard lock(mu_);
    if (closed_) {
      slot->Fail(
          Status::IOError("not connected to " + options_.address + ": " + close_reason_.message()));
      return slot;
    }
    waiting_.emplace(id, slot);
  }
  Status sent;
  {
    std::lock_guard lock(write_mu_);
    sent = SendAll(fd_.get(), *frame);
  }
  if (!sent.ok()) {
    slot->Fail(sent.WithContext("sending " + RequestName(type) + " to " +
                                options_.address));
    Close(Status::IOError("connection closed: " + sent.message()));
    return slot;
  }
  slot->StartClock(options_.request_timeout);
  return slot;
}

void Dispatcher::Close(const Status& reason) {
  std::unordered_map<uint64_t, std::shared_ptr<ReplySlot>> failed;
  {
    std::lock_guard lock(mu_);
    if (closed_) return;
    closed_ = true;
    ::shutdown(fd_.get(), SHUT_RDWR);
    failed.swap(waiting_);
    close_reason_ = reason;
  }
  const Status failure = reason.WithContext(options_.address);
  for (auto& [id, slot] : failed) slot->Fail(failure);
  deliveries_.Close(
      Status::IOError("not connected to " + options_.address + ": " + reason.message()));
}

Result<std::optional<PushedRecord>> Dispatcher::NextPush(std::chrono::milliseconds timeout) {
  return deliveries_.Pop(timeout);
}

void Dispatcher::Stop() {
  try {
    Close(Status::IOError("the client closed the connection"));
  } catch (...) {
    // Only allocation can fail; shutting the socket down still ends the reader.
    ::shutdown(fd_.get(), SHUT_RDWR);
  }
  if (reader_.joinable()) reader_.join();
}

void Dispatcher::ReadLoop() {
  try {
    Status ended;
    try {
      ended = ReadReplies();
    } catch (const std::bad_alloc&) {
      ended = Status::ResourceExhausted("out of memory while reading replies");
    } catch (const std::exception& e) {
      ended = Status::Internal(std::string("reading replies failed: ") + e.what());
    }
    Close(ended);
  } catch (...) {
    // No exception leaves the thread; waiting calls then end at their timeout or Stop().
    ::shutdown(fd_.get(), SHUT_RDWR);
  }
}

Status Dispatcher::ReadReplies() {
  protocol::FrameDecoder decoder(options_.max_frame_bytes);
  std::vector<uint8_t> chunk(kReadChunkBytes);
  while (true) {
    const ssize_t n = ::recv(fd_.get(), chunk.data(), chunk.size(), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return Status::IOError(std::string("connection broke: ") + std::strerror(errno));
    }
    if (n == 0) {
      Status truncated = decoder.Finish();
      return Status::IOError(
          "connection closed by the broker" +
          (truncated.ok() ? "" : " inside a reply (" + truncated.message() + ")"));
    }
    Status consumed = decoder.Consume({chunk.data(), static_cast<size_t>(n)});
    while (auto body = decoder.Next()) HIGGINS_RETURN_IF_ERROR(Dispatch(*body));
    if (!consumed.ok()) {
      return Status::Corruption("reply " + consumed.message() + " (the client's max_frame_bytes)");
    }
  }
}

Status Dispatcher::Dispatch(const std::string& body) {
  auto reply = protocol::ParseMessage(body);
  if (!reply.ok()) {
    // The frame boundaries still hold: only the request this reply answers fails.
    const auto id = protocol::PeekCorrelationId(body);
    auto slot = id ? TakeSlot(*id) : nullptr;
    if (slot == nullptr) return Status::Corruption("reply: " + reply.status().message());
    slot->Fail(Status::Corruption("reply: " + reply.status().message()));
    return Status::OK();
  }
  if (reply->type() == higgins::wire::Message::TAKERECORDSRESPONSE &&
      reply->takerecordsresponse().push()) {
    QueuePush(*std::move(reply));
    return Status::OK();
  }
  if (!reply->has_correlationid()) {
    // The broker's word on the whole connection (OVERLOADED, a frame it could not read): it
    // closes the connection after it.
    if (reply->type() != higgins::wire::Message::ERROR) return Status::OK();
    return Status::IOError("the broker ended the connection: " +
                           higgins::wire::Error::Type_Name(reply->error().type()) + ": " +
                           reply->error().message());
  }
  // A reply nobody waits for (its request's slot failed) is dropped.
  if (auto slot = TakeSlot(reply->correlationid())) slot->Fulfil(*std::move(reply));
  return Status::OK();
}

void Dispatcher::QueuePush(higgins::wire::Message push) {
  auto* body = push.mutable_takerecordsresponse();
  for (auto& record : *body->mutable_records()) {
    deliveries_.Push({body->subscription_id(), std::move(record), Status::OK()});
  }
  if (body->errors_size() > 0) {
    // The broker's word on the subscription (it ended, or records too large for a frame): its
    // consumers learn it here.
    deliveries_.Push({body->subscription_id(), {}, OperationStatus(body->code(), body->errors())});
  }
}

std::shared_ptr<ReplySlot> Dispatcher::TakeSlot(uint64_t correlation_id) {
  std::lock_guard lock(mu_);
  auto it = waiting_.find(correlation_id);
  if (it == waiting_.end()) return nullptr;
  auto slot = std::move(it->second);
  waiting_.erase(it);
  return slot;
}

}  // namespace higgins::client_internal
