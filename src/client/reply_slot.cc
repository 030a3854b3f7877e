#include "client/reply_slot.h"

#include <utility>

#include "client/dispatcher.h"
#include "client/requests.h"
#include "protocol/messages.h"

namespace higgins::client_internal {

ReplySlot::ReplySlot(higgins::wire::Message::Type request, std::weak_ptr<Dispatcher> owner)
    : request_type_(request), owner_(std::move(owner)) {}

std::shared_ptr<ReplySlot> ReplySlot::Failed(higgins::wire::Message::Type request, Status error) {
  auto slot = std::make_shared<ReplySlot>(request, std::weak_ptr<Dispatcher>());
  slot->Fail(std::move(error));
  return slot;
}

void ReplySlot::StartClock(std::chrono::milliseconds timeout) {
  if (timeout.count() <= 0) return;
  std::lock_guard lock(mu_);
  timeout_ = timeout;
  deadline_ = std::chrono::steady_clock::now() + timeout;
}

void ReplySlot::Fulfil(higgins::wire::Message reply) {
  std::lock_guard lock(mu_);
  if (outcome_) return;
  outcome_.emplace(std::move(reply));
  arrived_.notify_all();
}

void ReplySlot::Fail(Status error) {
  std::lock_guard lock(mu_);
  if (outcome_) return;
  outcome_.emplace(std::move(error));
  arrived_.notify_all();
}

Result<higgins::wire::Message> ReplySlot::Take() {
  std::unique_lock lock(mu_);
  bool timed_out = false;
  while (!outcome_) {
    if (!deadline_) {
      arrived_.wait(lock);
    } else if (arrived_.wait_until(lock, *deadline_) == std::cv_status::timeout && !outcome_) {
      outcome_.emplace(Status::DeadlineExceeded(
          "no reply to " + RequestName(request_type_) + " within " +
          std::to_string(timeout_.count()) + " ms"));
      timed_out = true;
    }
  }
  if (taken_) return Status::InvalidArgument("the reply was taken already (Pending::Get twice)");
  taken_ = true;
  Result<higgins::wire::Message> out = std::move(*outcome_);
  if (timed_out) {
    const std::string reason = out.status().message();
    lock.unlock();
    if (auto owner = owner_.lock()) owner->Close(Status::IOError("connection closed: " + reason));
  }
  return out;
}

}  // namespace higgins::client_internal
