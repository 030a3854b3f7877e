#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "protocol/frame.h"
#include "server/asio.h"
#include "server/byte_budget.h"

namespace higgins::server::kafka {

class KafkaListener;

/// One Kafka client connection (docs/kafka.md, "Connections"). Frames are a 4-byte big-endian
/// size and a request (the same framing as the native protocol, so protocol::FrameDecoder
/// splits them); requests are answered one at a time, in order, as a Kafka broker does (the
/// next request is not read from the decoder until the current one is answered: a long-polling
/// fetch holds the requests behind it). Pipelined requests wait in the socket and the decoder;
/// the ByteBudget account counts the request in progress and the reply being written, and
/// reading stops while a total is reached. A frame above the size limit, or bytes that are not a
/// request, close the connection (the Kafka protocol has no way to answer them).
///
/// All members are used on the session's strand.
class KafkaSession : public std::enable_shared_from_this<KafkaSession> {
 public:
  KafkaSession(KafkaListener* listener, asio::ip::tcp::socket socket, uint64_t id);
  void Start();
  /// Stops after the request in progress. Thread-safe.
  void StopReading();

 private:
  asio::awaitable<void> Run();
  /// Reads what the socket has into the decoder, waiting for bytes when it has none. False at
  /// the end of the connection (or an error, or a stop).
  asio::awaitable<bool> ReadMore();
  void ArmIdleTimer(std::chrono::steady_clock::duration after);
  void OnIdleTimer();
  void Close();

  KafkaListener* listener_;
  asio::ip::tcp::socket socket_;
  asio::strand<asio::ip::tcp::socket::executor_type> strand_;
  const uint64_t id_;
  protocol::FrameDecoder decoder_;
  ByteBudget::Account account_;
  asio::steady_timer wait_;  // while a total of the budget is reached
  asio::steady_timer idle_timer_;
  std::chrono::steady_clock::time_point last_activity_;
  char peek_byte_ = 0;
  bool busy_ = false;  // a request is being answered
  bool stopping_ = false;
  bool closed_ = false;
};

}  // namespace higgins::server::kafka
