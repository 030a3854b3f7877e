#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "higgins/result.h"
#include "server/asio.h"
#include "server/byte_budget.h"
#include "server/session_set.h"

namespace higgins::server {

class MemoryRelease;

namespace kafka {

class KafkaHandler;
class KafkaSession;

struct KafkaListenerOptions {
  std::string bind = "127.0.0.1";
  uint16_t port = 9092;  // 0: any free port (KafkaListener::port())
  /// A request frame larger than this closes its connection, as Kafka's
  /// socket.request.max.bytes does.
  uint32_t max_frame_bytes = 64u << 20;
  /// Connections beyond this are closed at once (Kafka has no message to say why).
  size_t max_connections = 1024;
  /// Shared with the broker's other listeners (docs/operations.md, "Connection memory").
  ByteBudget* budget = nullptr;
  /// A connection without a byte read or written for this long, and no request in progress,
  /// is closed (Kafka's connections.max.idle.ms); zero: never.
  std::chrono::milliseconds idle_timeout{std::chrono::minutes(10)};
};

/// The Kafka listener (docs/kafka.md): one KafkaSession per connection, spread over the
/// io_contexts round-robin, each answering its requests one at a time in order with the
/// KafkaHandler, as Kafka brokers do.
class KafkaListener {
 public:
  /// `contexts`: at least one, each run by its own thread and outliving the listener.
  /// `handler` and `options.budget` outlive it too.
  KafkaListener(std::vector<asio::io_context*> contexts, KafkaHandler* handler,
                KafkaListenerOptions options);
  ~KafkaListener();

  /// Binds and starts accepting. Errors: InvalidArgument (address), IOError naming the
  /// address (in use...).
  Status Start();
  uint16_t port() const { return port_; }
  /// Stops accepting; each session finishes the request in progress and closes. `done` runs
  /// once every session has closed. Callable from any thread.
  void Stop(std::function<void()> done);
  size_t connection_count() const;

 private:
  friend class KafkaSession;
  asio::awaitable<void> Accept();
  /// Every 100 ms: the group coordinator's timeouts (KafkaHandler::Tick).
  void ArmTick();
  void Remove(KafkaSession* session);

  asio::io_context& io_;
  std::vector<asio::io_context*> contexts_;
  size_t next_context_ = 0;
  KafkaHandler* handler_;
  KafkaListenerOptions options_;
  std::unique_ptr<ByteBudget> own_budget_;  // when options_.budget is null
  ByteBudget* budget_;
  std::shared_ptr<MemoryRelease> memory_release_;
  asio::ip::tcp::acceptor acceptor_;
  asio::steady_timer tick_;
  uint16_t port_ = 0;
  SessionSet<KafkaSession> sessions_;
  std::atomic<uint64_t> next_connection_id_{1};
};

}  // namespace kafka
}  // namespace higgins::server
