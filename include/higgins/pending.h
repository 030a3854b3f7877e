#pragma once

#include <chrono>
#include <memory>
#include <utility>

#include "higgins/result.h"

namespace higgins {

namespace client_internal {
/// The shared state of one outstanding request; defined in the library.
class ReplySlot;
}  // namespace client_internal

/// The reply to a request already sent (a Client's *Async calls). Get() waits for it, at most the
/// client's request_timeout after sending, and decodes it; call it once. Dropping a Pending
/// without calling Get() is fine: the reply is read and discarded. Movable, not copyable; one
/// thread at a time.
template <typename T>
class Pending {
 public:
  using Decode = Result<T> (*)(client_internal::ReplySlot&);

  Pending(std::shared_ptr<client_internal::ReplySlot> slot, Decode decode)
      : slot_(std::move(slot)), decode_(decode) {}

  /// Waits for the reply and returns the decoded value or the error.
  Result<T> Get() { return decode_(*slot_); }

 private:
  std::shared_ptr<client_internal::ReplySlot> slot_;
  Decode decode_;
};

}  // namespace higgins
