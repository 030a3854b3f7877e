#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>

#include "higgins.pb.h"
#include "higgins/result.h"

namespace higgins::client_internal {

/// One Record of a subscription push (TakeRecordsResponse with push = true), not decoded yet:
/// the reader thread never decodes Arrow data, the caller of NextDelivery does.
struct PushedRecord {
  std::string subscription_id;  // wire form (16 bytes, unchecked)
  higgins::wire::Record record;
  /// Not OK for a push that carries the broker's error instead of records: the subscription
  /// ended (NotFound: it was deleted, or its stream), or records were too large for a frame
  /// (ResourceExhausted). NextDelivery returns this error.
  Status ended;
};

/// The records pushed to one connection, in arrival order, between the dispatcher's reader
/// thread (Push) and the callers of Client::NextDelivery (Pop).
///
/// Unbounded: the broker pushes no more records than the connection's consumers took (their
/// demand), so the queue holds at most what the application asked for. An application that
/// takes without popping keeps its records here (and they come back after the visibility
/// timeout all the same).
///
/// Closing (the connection ended) is final; records queued before are still popped, then Pop
/// fails with the close reason. Thread-safe.
class DeliveryQueue {
 public:
  /// Appends a record and wakes one waiting Pop. Ignored after Close (the connection is gone,
  /// so the record could not be acknowledged anyway).
  void Push(PushedRecord record);

  /// Wakes every waiting Pop; once the queue is empty, Pop returns `reason`.
  void Close(Status reason);

  /// The oldest record, waiting up to `timeout` (zero or negative: not at all; a year or more:
  /// without limit); nullopt when none came in time. Errors: the close reason once closed and
  /// empty.
  Result<std::optional<PushedRecord>> Pop(std::chrono::milliseconds timeout);

  size_t size() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable ready_;
  std::deque<PushedRecord> records_;  // guarded by mu_
  std::optional<Status> closed_;      // guarded by mu_; the reason once closed
};

}  // namespace higgins::client_internal
