#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "client/delivery_queue.h"
#include "client/reply_slot.h"
#include "client/unique_fd.h"
#include "higgins.pb.h"
#include "higgins/result.h"
#include "protocol/frame.h"

namespace higgins::client_internal {

/// One connection's traffic: writes requests (whole frames, under a mutex, so threads never
/// interleave bytes) and runs a reader thread that splits the reply stream into frames
/// (protocol::FrameDecoder), parses them and hands each to the ReplySlot registered under its
/// correlation id. Replies are decoded into values by the caller, not by the reader.
/// Subscription pushes (TAKERECORDSRESPONSE with push = true, sent without a correlation id at
/// any time after a take) go to the connection's DeliveryQueue instead, one entry per Record.
///
/// Closing (Close: a local decision, a broken or corrupt stream, a timed-out reply) is final:
/// every waiting slot fails with the reason, and every later Send fails with IOError.
/// Thread-safe; always owned by a shared_ptr (slots hold weak references to close it).
class Dispatcher : public std::enable_shared_from_this<Dispatcher> {
 public:
  struct Options {
    std::string address;  // "host:port", for messages
    uint32_t max_frame_bytes = protocol::kDefaultMaxFrameBytes;
    std::chrono::milliseconds request_timeout{0};
  };

  /// Takes over the connected socket `fd` and starts the reader thread.
  static Result<std::shared_ptr<Dispatcher>> Start(UniqueFd fd, Options options);

  /// Stop().
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  const std::string& address() const { return options_.address; }
  bool closed() const;

  /// Sends `request` with a fresh correlation id. Never fails itself: when the request cannot go
  /// out (larger than max_frame_bytes: ResourceExhausted; connection closed: IOError; a failed
  /// write, which also closes the connection) the slot returned holds the error.
  std::shared_ptr<ReplySlot> Send(higgins::wire::Message request);

  /// Closes the connection (idempotent; the first reason is kept): shuts the socket down, fails
  /// every waiting slot with `reason` prefixed by the address ("host:port: reason"); later
  /// sends fail with IOError "not connected to host:port: reason". The reader thread then ends
  /// by itself.
  void Close(const Status& reason);

  /// Close, then waits for the reader thread to end. Must not be called by the reader thread.
  void Stop();

  /// The next record pushed to this connection (DeliveryQueue::Pop). Once the connection is
  /// closed and every record received before was popped: IOError "not connected to
  /// host:port: reason".
  Result<std::optional<PushedRecord>> NextPush(std::chrono::milliseconds timeout);

 private:
  Dispatcher(UniqueFd fd, Options options);
  void ReadLoop();
  // Reads until the connection ends; returns why it ended.
  Status ReadReplies();
  // Hands one frame body to its slot. An error closes the connection.
  Status Dispatch(const std::string& body);
  std::shared_ptr<ReplySlot> TakeSlot(uint64_t correlation_id);
  // Queues the records of a push, one entry each.
  void QueuePush(higgins::wire::Message push);

  const UniqueFd fd_;  // open until destruction; shut down by Close
  const Options options_;
  std::atomic<uint64_t> next_correlation_id_{1};
  std::thread reader_;

  mutable std::mutex mu_;
  bool closed_ = false;                                               // guarded by mu_
  Status close_reason_;                                               // guarded by mu_
  std::unordered_map<uint64_t, std::shared_ptr<ReplySlot>> waiting_;  // guarded by mu_

  std::mutex write_mu_;  // held for the whole of one frame's write

  DeliveryQueue deliveries_;  // closed by Close, after closed_ is set
};

}  // namespace higgins::client_internal
