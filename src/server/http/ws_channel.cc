#include "server/http/ws_channel.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <utility>

#include "server/http/json_replies.h"
#include "server/http/ws_frame_encoder.h"

// GCC 12 takes Boost 1.74's awaitable frames for a mismatched new/delete pair: a false
// positive (http_session.cc).
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace higgins::server::http {
namespace {

namespace beast = boost::beast;
namespace websocket = boost::beast::websocket;

// Entries of one bucket read per call while catching up.
constexpr size_t kCatchUpEntries = 16;
// How often a catch-up waiting for its reader to drain looks again.
constexpr auto kCatchUpPoll = std::chrono::milliseconds(5);

// One produce of a channel: the stream and the JSON text frame.
struct ProduceFrame {
  std::string stream;
  std::string payload;
};

// The broker's answer to `frame`, delivered on `executor` (a non-coroutine initiation:
// http_session.cc's Answer says why).
template <typename Executor>
auto ProduceOn(broker::BrokerApi* broker, ProduceFrame frame, Executor executor) {
  return asio::async_initiate<decltype(asio::use_awaitable), void(Result<stream::ProduceResult>)>(
      // NOLINTNEXTLINE(performance-unnecessary-value-param): kept alive by the callback
      [broker](auto completion, ProduceFrame f, Executor on) {
        auto box = std::make_shared<decltype(completion)>(std::move(completion));
        auto kept = std::make_shared<ProduceFrame>(std::move(f));
        broker->Produce(kept->stream, kept->payload, stream::PayloadFormat::kJson,
                        [box, on, kept](Result<stream::ProduceResult> result) {
                          asio::post(on, [box, result = std::move(result)]() mutable {
                            (*box)(std::move(result));
                          });
                        });
      },
      asio::use_awaitable, std::move(frame), std::move(executor));
}

}  // namespace

WsChannel::WsChannel(beast::tcp_stream stream, Context context, WsGrant grant, uint64_t id)
    : ws_(std::move(stream)),
      context_(context),
      grant_(std::move(grant)),
      id_(id),
      expiry_(ws_.get_executor()),
      wake_writer_(ws_.get_executor()) {}

WsChannel::~WsChannel() = default;

asio::awaitable<void> WsChannel::Run(Request upgrade) {
  auto self = shared_from_this();
  boost::system::error_code ec;
  // A stream that does not exist is refused before the upgrade, in HTTP.
  for (const std::string& stream : grant_.streams) {
    if (auto logs = context_.broker->DescribeBuckets(stream); !logs.ok()) {
      Response response = HttpApi::ErrorResponse(logs.status(), upgrade.version());
      response.keep_alive(false);
      co_await beast::http::async_write(ws_.next_layer(), response,
                                        asio::redirect_error(asio::use_awaitable, ec));
      co_return;
    }
  }
  beast::get_lowest_layer(ws_).expires_never();
  websocket::stream_base::timeout timeouts;
  timeouts.handshake_timeout = std::chrono::seconds(30);
  timeouts.idle_timeout = std::chrono::seconds(60);  // pinged at 30 s; no pong by 60 s: closed
  timeouts.keep_alive_pings = true;
  ws_.set_option(timeouts);
  ws_.read_message_max(context_.limits.max_message_bytes);
  ws_.text(true);
  // The feeds start before the handshake's answer goes out, so that a record committed once the
  // client sees the connection open reaches it (from=latest); what they bring before the answer
  // has gone waits in deferred_.
  const Status subscribed = grant_.read ? Subscribe() : Status::OK();
  co_await ws_.async_accept(upgrade, asio::redirect_error(asio::use_awaitable, ec));
  if (ec) {
    spdlog::debug("WebSocket connection {}: handshake failed: {}", id_, ec.message());
    LeaveFeeds();
    co_return;
  }
  open_ = true;
  for (const auto& run : std::exchange(deferred_, {})) run();
  ArmExpiry();
  if (!subscribed.ok()) CloseWith(websocket::close_code::internal_error, subscribed.message());
  co_await ReadLoop();
  expiry_.cancel();
  wake_writer_.cancel();
  LeaveFeeds();
}

void WsChannel::LeaveFeeds() {
  for (size_t i = 0; i < feeds_.size(); ++i) {
    if (feeds_[i].tail) context_.tails->Leave(grant_.streams[i], feeds_[i].tail, feeds_[i].sink);
  }
  feeds_.clear();
}

void WsChannel::Stop() {
  CloseWith(websocket::close_code::going_away, "the broker is stopping");
}

void WsChannel::ArmExpiry() {
  if (!grant_.expires_at_s) return;
  const auto now = std::chrono::system_clock::now();
  const auto at = std::chrono::system_clock::time_point(std::chrono::seconds(*grant_.expires_at_s));
  expiry_.expires_after(at > now ? at - now : std::chrono::system_clock::duration::zero());
  expiry_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (!ec) self->CloseWith(kCloseTokenExpired, "token expired");
  });
}

asio::awaitable<void> WsChannel::ReadLoop() {
  for (;;) {
    beast::flat_buffer buffer;
    boost::system::error_code ec;
    co_await ws_.async_read(buffer, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      // Beast has already closed with 1009 (too big) or 1007 (invalid UTF-8) where the
      // protocol says so; a close from the client ends here too.
      spdlog::debug("WebSocket connection {}: {}", id_, ec.message());
      co_return;
    }
    if (closing_) continue;  // drain until the client answers the close
    if (!ws_.got_text()) {
      CloseWith(websocket::close_code::unknown_data,
                "binary frames are not accepted: send records as JSON text");
      continue;
    }
    if (!grant_.write) {
      CloseWith(websocket::close_code::policy_error,
                grant_.streams.size() == 1 ? "this connection may not write to '" +
                                                 grant_.streams[0] + "' (the token is read-only)"
                                           : "a connection to several streams cannot write");
      continue;
    }
    // A named local, not a temporary in the co_await expression: GCC 12 destroys such
    // temporaries twice (kafka_session.cc).
    ProduceFrame frame{grant_.streams[0], beast::buffers_to_string(buffer.data())};
    auto produced = co_await ProduceOn(context_.broker, std::move(frame), ws_.get_executor());
    auto answer =
        EncodeTextFrame(produced.ok() ? ProduceJson(*produced) : ErrorJson(produced.status()));
    if (!answer.ok()) {
      CloseWith(websocket::close_code::internal_error, answer.status().message());
      continue;
    }
    Enqueue(std::make_shared<const std::string>(std::move(*answer)));
    Send();
  }
}

Status WsChannel::Subscribe() {
  feeds_.resize(grant_.streams.size());
  for (size_t i = 0; i < grant_.streams.size(); ++i) {
    HIGGINS_ASSIGN_OR_RETURN(auto tail, context_.tails->Get(grant_.streams[i]));
    Feed& feed = feeds_[i];
    feed.tail = tail;
    feed.live = grant_.from == WsGrant::From::kLatest;
    std::weak_ptr<WsChannel> weak = weak_from_this();
    auto executor = ws_.get_executor();
    feed.sink = tail->Subscribe(
        [weak, executor, i](const TailBatch& batch, const StreamTail::Delivery& delivery) {
          // `delivery` is let go of once OnBatch has queued the batch (or the handler is
          // dropped): the tail's next push waits for that.
          asio::post(executor, [weak, i, batch, delivery] {
            if (auto self = weak.lock()) self->OnBatch(i, batch);
          });
        },
        [weak, executor, i](const StreamTail::Positions& positions) {
          asio::post(executor, [weak, i, positions] {
            if (auto self = weak.lock()) self->OnStarted(i, positions);
          });
        },
        grant_.batch);
  }
  return Status::OK();
}

void WsChannel::OnBatch(size_t i, const TailBatch& batch) {
  if (!open_) {
    deferred_.emplace_back([this, i, batch] { OnBatch(i, batch); });
    return;
  }
  if (closing_ || i >= feeds_.size()) return;
  Feed& feed = feeds_[i];
  const auto in_key = [this](const TailRecord& record) {
    return grant_.key.empty() || record.key == grant_.key;
  };
  // What a live feed pushes: records from before the feed's start came in a batch drained
  // before it, and the catch-up read them.
  const auto takes = [&](const TailRecord& record) {
    return in_key(record) &&
           (grant_.from == WsGrant::From::kLatest || record.bucket >= feed.start.size() ||
            record.sequence >= feed.start[record.bucket]);
  };
  if (grant_.batch && feed.live && batch->array_frame &&
      std::all_of(batch->records.begin(), batch->records.end(), takes)) {
    // The whole batch: the message the tail made once for every batch=true reader.
    Enqueue(batch->array_frame);
    Send();
    return;
  }
  size_t held_bytes = 0;
  for (const TailRecord& record : batch->records) {
    if (feed.live) {
      if (takes(record)) Push(record);
    } else if (in_key(record)) {
      feed.held.push_back(record);
      held_bytes += record.frame->size();
    }
  }
  if (!feed.live &&
      ws_.next_layer().queued_bytes() + held_bytes > context_.limits.max_queued_bytes) {
    CloseWith(websocket::close_code::try_again_later,
              "reader too slow: the records that came during the catch-up are over the limit");
  }
  Send();
}

void WsChannel::OnStarted(size_t i, const StreamTail::Positions& positions) {
  if (!open_) {
    deferred_.emplace_back([this, i, positions] { OnStarted(i, positions); });
    return;
  }
  if (closing_ || i >= feeds_.size()) return;
  feeds_[i].start = positions;
  if (feeds_[i].live) return;
  asio::co_spawn(
      ws_.get_executor(),
      [self = shared_from_this(), i, positions] { return self->CatchUp(i, positions); },
      asio::detached);
}

asio::awaitable<void> WsChannel::CatchUp(size_t i, StreamTail::Positions positions) {
  auto self = shared_from_this();
  const std::string& stream = grant_.streams[i];
  // Which buckets, from which sequence: every bucket from 0, or the key's bucket from the
  // requested record on.
  std::vector<std::pair<uint32_t, uint64_t>> scans;
  if (grant_.key.empty()) {
    for (uint32_t b = 0; b < positions.size(); ++b) scans.emplace_back(b, 0);
  } else {
    const uint64_t offset = grant_.from == WsGrant::From::kOffset ? grant_.from_offset : 0;
    auto at = context_.broker->Locate(stream, grant_.key, offset);
    if (at.ok()) scans.emplace_back(at->bucket, at->sequence);
  }
  for (auto [bucket, sequence] : scans) {
    const uint64_t end = bucket < positions.size() ? positions[bucket] : 0;
    while (sequence < end && !closing_) {
      while (ws_.next_layer().queued_bytes() > context_.limits.max_queued_bytes / 2 && !closing_) {
        wake_writer_.expires_after(kCatchUpPoll);
        boost::system::error_code ignored;
        co_await wake_writer_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
      }
      auto read = context_.broker->ReadBucket(stream, bucket, sequence, 1, kCatchUpEntries);
      if (!read.ok() || read->entries.empty()) break;
      std::vector<TailRecord> records;
      for (const broker::BucketEntry& entry : read->entries) {
        const uint64_t rows = static_cast<uint64_t>(entry.batch.num_rows());
        if (entry.base_sequence + rows <= sequence) continue;
        RenderEntry(stream, bucket, entry,
                    sequence > entry.base_sequence ? sequence - entry.base_sequence : 0, &records);
        sequence = entry.base_sequence + rows;
      }
      for (const TailRecord& record : records) {
        if (record.sequence >= end) break;
        if (!grant_.key.empty() && record.key != grant_.key) continue;
        if (grant_.from == WsGrant::From::kOffset && record.offset < grant_.from_offset) continue;
        Push(record);
      }
      Send();
    }
  }
  if (closing_) co_return;
  Feed& feed = feeds_[i];
  feed.live = true;
  for (const TailRecord& record : feed.held) {
    if (record.bucket < positions.size() && record.sequence < positions[record.bucket]) continue;
    Push(record);
  }
  feed.held.clear();
  Send();
}

void WsChannel::Push(const TailRecord& record) {
  if (grant_.batch) {
    array_.push_back(record.json);  // sent by Send, as one message
  } else {
    Enqueue(record.frame);
  }
}

void WsChannel::Enqueue(std::shared_ptr<const std::string> frame) {
  if (closing_) return;
  CoalescingStream& out = ws_.next_layer();
  out.Append(std::move(frame));
  if (out.queued_bytes() > context_.limits.max_queued_bytes) {
    CloseWith(websocket::close_code::try_again_later,
              "reader too slow: " + std::to_string(out.queued_bytes()) +
                  " bytes of records waiting, over the limit");
    return;
  }
}

void WsChannel::Send() {
  if (!array_.empty()) {
    auto frame = EncodeArrayFrame(array_);
    array_.clear();
    if (!frame.ok()) {
      CloseWith(websocket::close_code::internal_error, frame.status().message());
      return;
    }
    Enqueue(std::make_shared<const std::string>(std::move(*frame)));
  }
  if (closing_) return;
  CoalescingStream& out = ws_.next_layer();
  out.Flush();
  if (out.error()) closing_ = true;  // the read loop ends with the same error
}

void WsChannel::CloseWith(uint16_t code, std::string reason) {
  if (closing_) return;
  closing_ = true;
  array_.clear();
  ws_.next_layer().DiscardPending();
  if (reason.size() > 120) reason.resize(120);  // a close frame's reason has at most 123 bytes
  spdlog::debug("WebSocket connection {}: closing with {}: {}", id_, code, reason);
  asio::co_spawn(
      ws_.get_executor(),
      [self = shared_from_this(), code, reason = std::move(reason)]() -> asio::awaitable<void> {
        boost::system::error_code ec;
        co_await self->ws_.async_close(
            websocket::close_reason(static_cast<websocket::close_code>(code), reason),
            asio::redirect_error(asio::use_awaitable, ec));
      },
      asio::detached);
}

}  // namespace higgins::server::http
