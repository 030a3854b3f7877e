#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "higgins.pb.h"
#include "higgins/result.h"

namespace higgins::client_internal {

class Dispatcher;

/// The rendezvous between one request and its reply: the dispatcher's reader thread fills it
/// (Fulfil or Fail, the first outcome wins), the caller takes the outcome once (Take). Shared by
/// the dispatcher (until the reply arrives or the connection closes) and the caller's Pending.
/// Thread-safe.
class ReplySlot {
 public:
  /// A slot for a request of type `request` sent on `owner`'s connection.
  ReplySlot(higgins::wire::Message::Type request, std::weak_ptr<Dispatcher> owner);
  /// A slot whose outcome is already `error` (a request that could not be sent).
  static std::shared_ptr<ReplySlot> Failed(higgins::wire::Message::Type request, Status error);

  ReplySlot(const ReplySlot&) = delete;
  ReplySlot& operator=(const ReplySlot&) = delete;

  higgins::wire::Message::Type request_type() const { return request_type_; }

  /// Starts the reply's clock: Take waits at most `timeout` from now (zero: no limit).
  void StartClock(std::chrono::milliseconds timeout);

  void Fulfil(higgins::wire::Message reply);
  void Fail(Status error);

  /// Waits for the outcome and hands it over. When the clock runs out first, the outcome is
  /// DeadlineExceeded and the owner's connection is closed (replies come in request order, so
  /// the ones after a missing reply cannot arrive either). A second call returns
  /// InvalidArgument: the reply was handed over already.
  Result<higgins::wire::Message> Take();

 private:
  const higgins::wire::Message::Type request_type_;
  const std::weak_ptr<Dispatcher> owner_;

  std::mutex mu_;
  std::condition_variable arrived_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;  // guarded by mu_
  std::chrono::milliseconds timeout_{0};                           // guarded by mu_
  std::optional<Result<higgins::wire::Message>> outcome_;          // guarded by mu_
  bool taken_ = false;                                             // guarded by mu_
};

}  // namespace higgins::client_internal
