#pragma once

#include <asio.hpp>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/frame.h"
#include "server/request_handler.h"

namespace higgins::server {

class ProduceCoalescer;

class Server;

/// One client connection. Reads frames, dispatches each request, and writes replies in the
/// order the requests arrived (a reply that completes early waits for those before it).
///
/// Ordering: each request sees the effects of every earlier request on its connection.
/// Consecutive produces run concurrently (they join group commits); any other request waits
/// until the produces before it have completed. An administrative request (configuration,
/// module upload, subscription create/delete: run on the handler's administrative thread) waits
/// for every request before it, and every request after it waits for it.
///
/// All members are used on the session's strand only.
class Session : public std::enable_shared_from_this<Session> {
 public:
  /// `coalescer`: the one of the socket's io_context, which gathers this thread's produces.
  Session(Server* server, ProduceCoalescer* coalescer, asio::ip::tcp::socket socket);

  /// Starts the read loop.
  void Start();
  /// Stops reading; the session closes after answering what it read. Thread-safe.
  void StopReading();
  /// Sends one ERROR frame and closes (used when the connection limit is reached).
  void RejectAndClose(const std::string& message);
  /// Sends an unsolicited message (a subscription push) after the replies ready to go; dropped
  /// once the session is closed. Thread-safe.
  void Push(const higgins::wire::Message& message);

 private:
  asio::awaitable<void> ReadLoop();
  /// Reserves the reply slot of the next request.
  uint64_t ReserveSlot();
  /// Stores a reply (called on the strand) and writes whatever is now in order. `counted`: the
  /// frame's bytes are already in pending_reply_bytes_.
  void Complete(uint64_t slot, std::string frame, bool counted = false);
  void Dispatch(const std::string& body);
  /// Runs a request now, or queues it behind unfinished produces (see class comment).
  void Enqueue(uint64_t slot, higgins::wire::Message request);
  void Execute(uint64_t slot, higgins::wire::Message request);
  void DrainDeferred();
  void MaybeWrite();
  void MaybeClose();
  std::string Frame(const higgins::wire::Message& message) const;
  /// Whether replies waiting to be sent reached ServerOptions::max_pending_reply_bytes.
  bool ReplyBacklogFull() const;
  /// Whether a request of `type` must wait for those in flight (see the class comment), or
  /// for the client to read its replies.
  bool MustWait(higgins::wire::Message::Type type) const;

  Server* server_;
  ProduceCoalescer* coalescer_;  // owned by the server
  Connection connection_;  // id and push callback, for subscriptions
  asio::ip::tcp::socket socket_;
  asio::strand<asio::ip::tcp::socket::executor_type> strand_;
  protocol::FrameDecoder decoder_;
  asio::steady_timer wake_;  // reader waits here when too many requests are in flight
  std::deque<std::optional<std::string>> slots_;  // replies in request order
  uint64_t first_slot_ = 0;                       // slot number of slots_.front()
  std::vector<std::string> writing_;              // frames of the write in progress
  std::deque<std::string> pushes_;                // push frames waiting to be written
  size_t produces_in_flight_ = 0;
  size_t others_in_flight_ = 0;  // every request in flight that is not a produce
  size_t admin_in_flight_ = 0;   // those of them that are administrative
  std::deque<std::pair<uint64_t, higgins::wire::Message>> deferred_;
  bool write_in_progress_ = false;
  bool flush_scheduled_ = false;  // a MaybeWrite is posted (gathers replies into one write)
  bool reading_done_ = false;     // no more requests will be read
  bool closed_ = false;
  // Bytes of reply frames made and not yet written. Atomic: a produce's reply is made on the
  // committer thread; everything else reads it on the strand.
  std::atomic<size_t> pending_reply_bytes_{0};
  // Set (by the subscriptions' delivery thread) when Connection::ready said no.
  std::atomic<bool> push_blocked_{false};
};

}  // namespace higgins::server
