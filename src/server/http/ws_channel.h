#pragma once

#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "broker/broker_api.h"
#include "server/asio.h"
#include "server/byte_budget.h"
#include "server/http/coalescing_stream.h"
#include "server/http/http_api.h"
#include "server/http/stream_tail.h"
#include "server/http/ws_grant.h"

namespace higgins::server::http {

/// Limits of a WebSocket connection (docs/http.md, "WebSocket channels").
struct WsLimits {
  /// A message from the client larger than this closes the connection with 1009.
  size_t max_message_bytes = size_t{1} << 20;
  /// Pushes waiting to be written to a reader: over this, the reader is too slow and the
  /// connection closes with 1013.
  size_t max_queued_bytes = size_t{8} << 20;
  /// The shortest time between two pushes of a stream to its readers: records committed within
  /// it go out together, one socket write per reader (StreamTail). Zero pushes every commit.
  std::chrono::microseconds push_interval = std::chrono::milliseconds(20);
};

/// Close codes of the channels, beyond RFC 6455's (docs/http.md).
inline constexpr uint16_t kCloseTokenExpired = 3001;

/// One WebSocket connection on the model of postgres-websockets: pushes every new record of the
/// granted streams as a JSON text frame (read), and produces the JSON text frames it receives,
/// answering each with its offsets or an error (write). Runs on the strand of the connection's
/// socket; owned by the HttpSession that upgraded it.
class WsChannel : public std::enable_shared_from_this<WsChannel> {
 public:
  /// Pushes and answers leave through CoalescingStream, framed by Beast once per record for
  /// every reader (EncodeTextFrame), a batch in one socket write; Beast's control frames too.
  using Socket = boost::beast::websocket::stream<CoalescingStream>;
  struct Context {
    broker::BrokerApi* broker = nullptr;
    StreamTails* tails = nullptr;
    WsLimits limits;
  };

  WsChannel(boost::beast::tcp_stream stream, Context context, WsGrant grant, uint64_t id);
  ~WsChannel();
  /// Completes the handshake of `upgrade`, then serves the connection until either side closes.
  asio::awaitable<void> Run(Request upgrade);
  /// Closes with 1001 (going away). On the strand.
  void Stop();

 private:
  asio::awaitable<void> ReadLoop();
  /// Starts the live feed of every granted stream, and the catch-up the grant asks for.
  Status Subscribe();
  /// Leaves the tails of every feed.
  void LeaveFeeds();
  void OnBatch(size_t stream_index, const TailBatch& batch);
  void OnStarted(size_t stream_index, const StreamTail::Positions& positions);
  asio::awaitable<void> CatchUp(size_t stream_index, StreamTail::Positions positions);
  void Push(const TailRecord& record);
  /// Appends one framed message to what the socket will send (Send), or closes the
  /// connection with 1013 when the reader has too much waiting.
  void Enqueue(std::shared_ptr<const std::string> frame);
  /// Writes what Enqueue appended: one socket write for a whole batch of records.
  void Send();
  void CloseWith(uint16_t code, std::string reason);
  void ArmExpiry();

  Socket ws_;
  Context context_;
  WsGrant grant_;
  const uint64_t id_;
  struct Feed {
    std::shared_ptr<StreamTail> tail;
    uint64_t sink = 0;
    bool live = false;             // caught up: batches go straight out
    std::vector<TailRecord> held;  // batches that came during the catch-up
    StreamTail::Positions start;   // what the catch-up stops at
  };
  std::vector<Feed> feeds_;
  /// batch=true: the records pushed since the last Send, sent by it as one array message.
  std::vector<std::shared_ptr<const std::string>> array_;
  bool closing_ = false;
  /// The handshake's answer has gone: pushes may follow it. Until then the feeds' callbacks
  /// wait in deferred_, in order.
  bool open_ = false;
  std::vector<std::function<void()>> deferred_;
  asio::steady_timer expiry_;
  asio::steady_timer wake_writer_;
};

}  // namespace higgins::server::http
