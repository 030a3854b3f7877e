#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/frame.h"
#include "server/asio.h"
#include "server/byte_budget.h"
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
/// Memory (docs/operations.md, "Connection memory"): the session's ByteBudget account counts the
/// requests it has read and not answered and the replies and pushes it has not written; past a
/// limit it stops reading and lets TCP push back. It reads through a per-thread buffer, so an
/// idle session holds no read buffer, and it closes after ServerOptions::idle_timeout without a
/// byte in either direction unless it consumes a subscription.
///
/// All members are used on the session's strand only, but for the account (atomic).
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
  /// frame's bytes are already in the account's reply bytes.
  void Complete(uint64_t slot, std::string frame, bool counted = false);
  void Dispatch(const std::string& body);
  /// A request read and not yet run: its reply slot, and the bytes its frame counts in the
  /// account until the reply is made.
  struct Request {
    uint64_t slot = 0;
    higgins::wire::Message message;
    size_t bytes = 0;
  };
  /// Runs a request now, or queues it behind unfinished produces (see class comment).
  void Enqueue(Request request);
  void Execute(Request request);
  void DrainDeferred();
  /// Whether the reader must pause (requests in flight, the account's limits).
  bool ReadingPaused() const;
  /// Called when a pause that only a total caused may be over: resumes pushes and deferred
  /// requests if replies have room again.
  void ResumeAfterTotals();
  void ArmIdleTimer(std::chrono::steady_clock::duration after);
  void OnIdleTimer();
  void MaybeWrite();
  void MaybeClose();
  std::string Frame(const higgins::wire::Message& message) const;
  /// Whether replies waiting to be sent reached a limit of the account.
  bool ReplyBacklogFull() const;
  /// Whether a request of `type` must wait for those in flight (see the class comment), or
  /// for the client to read its replies.
  bool MustWait(higgins::wire::Message::Type type) const;

  Server* server_;
  ProduceCoalescer* coalescer_;  // owned by the server
  Connection connection_;        // id and push callback, for subscriptions
  asio::ip::tcp::socket socket_;
  asio::strand<asio::ip::tcp::socket::executor_type> strand_;
  protocol::FrameDecoder decoder_;
  ByteBudget::Account account_;
  asio::steady_timer wake_;  // reader waits here when too many requests are in flight
  asio::steady_timer idle_timer_;
  std::chrono::steady_clock::time_point last_activity_;  // last byte read or written
  bool consumer_ = false;  // took records from a subscription: never closed for idleness
  char peek_byte_ = 0;     // what the reader peeks into while it waits for data
  std::deque<std::optional<std::string>> slots_;  // replies in request order
  uint64_t first_slot_ = 0;                       // slot number of slots_.front()
  std::vector<std::string> writing_;              // frames of the write in progress
  std::deque<std::string> pushes_;                // push frames waiting to be written
  size_t produces_in_flight_ = 0;
  size_t others_in_flight_ = 0;  // every request in flight that is not a produce
  size_t admin_in_flight_ = 0;   // those of them that are administrative
  std::deque<Request> deferred_;
  bool write_in_progress_ = false;
  bool flush_scheduled_ = false;  // a MaybeWrite is posted (gathers replies into one write)
  bool reading_done_ = false;     // no more requests will be read
  bool closed_ = false;
  // Set (by the subscriptions' delivery thread) when Connection::ready said no.
  std::atomic<bool> push_blocked_{false};
};

}  // namespace higgins::server
