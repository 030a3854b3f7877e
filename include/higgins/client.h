#pragma once

// The Higgins C++ client library: one TCP connection to a broker, speaking the wire protocol of
// docs/protocol.md. See docs/client.md for a guide and the mapping from the reference's calls.
//
// Thread-safety: a Client may be shared by any number of threads. Every call sends its request
// at once and waits only for its own reply, so calls from several threads, and the *Async calls
// of one thread, are pipelined on the one connection; the broker answers them in the order they
// were sent, and each request sees the effects of the requests sent before it on the connection.
//
// Errors: every call returns a Status or Result. Broker errors keep the broker's code and text
// (for example `InvalidArgument: row 3, field 'data': ...`); the client adds:
//   IOError           cannot resolve or connect, or the connection broke (every call still
//                     waiting fails with it, and so does every later call);
//   DeadlineExceeded  no connection within connect_timeout, or no reply within request_timeout
//                     (the connection is then closed: replies are ordered, so a late reply
//                     would stall every later one);
//   Corruption        a reply that is not a valid frame, Message or Arrow IPC stream;
//   ResourceExhausted a request larger than max_frame_bytes (nothing is sent).

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "higgins/arrow/record_batch.h"
#include "higgins/client_types.h"
#include "higgins/pending.h"
#include "higgins/result.h"
#include "higgins/status.h"

namespace higgins {

struct ClientOptions {
  /// Host name or address; resolved with getaddrinfo (IPv4 and IPv6).
  std::string host = "127.0.0.1";
  uint16_t port = 4932;
  /// Limit for resolving and connecting. Zero waits for the operating system's own limit.
  std::chrono::milliseconds connect_timeout{5000};
  /// Limit for each reply, counted from when the request is sent. Zero waits forever.
  std::chrono::milliseconds request_timeout{30000};
  /// Largest frame sent or accepted, in bytes (the broker's default --max-frame-bytes).
  size_t max_frame_bytes = size_t{64} << 20;
};

/// Options of one produce or query call.
struct CallOptions {
  /// Read-your-writes (docs/architecture.md, "Derived streams"). A produce replies only once every
  /// map and reduce stream fed by the stream (directly or through others) has derived the produced
  /// records; a query of a map or reduce stream first waits until it has derived every record its
  /// source stream holds for the partition. Other streams need no wait.
  bool wait_for_derived = false;
  /// How long the broker waits (it clamps this to its own maximum, 60 s by default); then the
  /// call fails with DeadlineExceeded naming the streams still behind. A produce's records are
  /// committed all the same. Keep it below ClientOptions::request_timeout.
  std::chrono::milliseconds wait_timeout{10'000};
};

class Client {
 public:
  /// Connects to options.host:options.port.
  static Result<std::unique_ptr<Client>> Connect(const ClientOptions& options);
  /// Connects to "host:port" (or "[v6]:port") within `timeout`; other options keep defaults.
  static Result<std::unique_ptr<Client>> Connect(std::string_view address,
                                                 std::chrono::milliseconds timeout);

  /// Closes the connection; calls still waiting fail with IOError.
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  /// "host:port" as given in the options.
  const std::string& address() const;
  /// False once the connection has broken or been closed.
  bool connected() const;
  /// Closes the connection now (idempotent).
  void Close();

  // --- Broker administration -------------------------------------------------------------------

  /// Sends a ping and waits for the pong. Returns the round-trip time.
  Result<std::chrono::microseconds> Ping();
  /// Merges a TOML configuration (docs/configuration.md) into the broker's topography. Every
  /// problem is listed in the error text, one per line; nothing is applied unless all is valid.
  Status UploadConfiguration(std::string_view toml);
  /// UploadConfiguration, returning the catch-up of every map, reduce and join stream the
  /// configuration added, in the order they were added.
  Result<std::vector<CatchUp>> ApplyConfiguration(std::string_view toml);
  /// Deletes "streams.<name>", "schema.<name>" or "storage.<name>" (a bare name is a stream).
  Status DeleteConfiguration(std::string_view key);
  /// The broker's topography as a TOML configuration that parses back to the same declarations.
  Result<std::string> GetTopography();
  /// Uploads a WebAssembly module under `name` (what a derived stream's `fn` names) and returns
  /// the version it created: 1 for a new name, then +1 per upload (docs/udf-abi.md). The broker
  /// checks the module first; every problem is listed in the error text, one per line.
  Result<uint64_t> UploadModule(std::string_view name, std::span<const uint8_t> wasm);
  /// Streams with their partitions and counts; `stream` empty for every stream, else that one
  /// (NotFound when it does not exist).
  Result<std::vector<StreamInfo>> Metadata(std::string_view stream = {});

  // --- Produce ---------------------------------------------------------------------------------
  // A produce is validated as a whole by the broker and committed atomically: either every row
  // gets an offset or none does. The result lists each row's partition key and offset.

  /// JSON: one object, an array of objects, or NDJSON (docs/json.md).
  Result<ProduceResult> ProduceJson(std::string_view stream, std::string_view json,
                                    const CallOptions& options = {});
  /// Arrow record batches; the client encodes them as one IPC stream. Every batch must have the
  /// same schema (InvalidArgument otherwise); the broker checks it against the stream's schema.
  Result<ProduceResult> Produce(std::string_view stream, const arrow::RecordBatch& batch,
                                const CallOptions& options = {});
  Result<ProduceResult> Produce(std::string_view stream,
                                std::span<const arrow::RecordBatch> batches,
                                const CallOptions& options = {});
  /// An Arrow IPC stream or file, sent as is.
  Result<ProduceResult> ProduceIpc(std::string_view stream, std::span<const uint8_t> ipc,
                                   const CallOptions& options = {});

  Pending<ProduceResult> ProduceJsonAsync(std::string_view stream, std::string_view json,
                                          const CallOptions& options = {});
  Pending<ProduceResult> ProduceAsync(std::string_view stream, const arrow::RecordBatch& batch,
                                      const CallOptions& options = {});
  Pending<ProduceResult> ProduceIpcAsync(std::string_view stream, std::span<const uint8_t> ipc,
                                         const CallOptions& options = {});

  // --- Query -----------------------------------------------------------------------------------
  // A missing stream, partition or offset is NotFound. Partition keys are the key's text: a
  // string key's bytes, or an integer key in decimal ("42"). On a window stream, QueryAt's
  // offset is a window's number and QueryLatest gives the latest window: the Records hold its
  // member records and Records::window its bounds; QueryRange and QueryAtTime are
  // InvalidArgument there.

  /// The record at `offset`.
  Result<Records> QueryAt(std::string_view stream, std::string_view partition_key, uint64_t offset,
                          const CallOptions& options = {});
  /// The record at the partition's highest offset.
  Result<Records> QueryLatest(std::string_view stream, std::string_view partition_key,
                              const CallOptions& options = {});
  /// Records at offsets [from, to), clamped to the partition's end and to the broker's
  /// --max-range-records (check Records::offset and num_rows() for what came back). NotFound when
  /// `from` is past the end.
  Result<Records> QueryRange(std::string_view stream, std::string_view partition_key,
                             uint64_t from, uint64_t to, const CallOptions& options = {});
  /// Every record at offsets [from, to) (to the partition's end when `to` is past it), in
  /// offset order: QueryRange again from where each reply stopped (the broker's
  /// --max-range-records, or what fits in a reply frame) until the range is done, calling
  /// `each` with each reply's Records as it comes. An error from `each` stops the range and is
  /// returned as it is. Errors: those of QueryRange (NotFound when `from` is past the end); a
  /// NotFound after the first reply is the partition's end, not an error. The records passed
  /// to `each` tell how far a range that failed got.
  Status QueryRangeEach(std::string_view stream, std::string_view partition_key, uint64_t from,
                        uint64_t to, const std::function<Status(const Records&)>& each,
                        const CallOptions& options = {});
  /// The first record committed at or after `timestamp_ms` (ms since the Unix epoch).
  Result<Records> QueryAtTime(std::string_view stream, std::string_view partition_key,
                              uint64_t timestamp_ms, const CallOptions& options = {});

  Pending<Records> QueryAtAsync(std::string_view stream, std::string_view partition_key,
                                uint64_t offset, const CallOptions& options = {});
  Pending<Records> QueryLatestAsync(std::string_view stream, std::string_view partition_key,
                                    const CallOptions& options = {});
  Pending<Records> QueryRangeAsync(std::string_view stream, std::string_view partition_key,
                                   uint64_t from, uint64_t to, const CallOptions& options = {});
  Pending<Records> QueryAtTimeAsync(std::string_view stream, std::string_view partition_key,
                                    uint64_t timestamp_ms, const CallOptions& options = {});

  // --- Subscriptions (docs/client.md, "Subscriptions"; docs/architecture.md) ----------------
  // Subscription ids are UUIDs in text form ("8-4-4-4-12", lower-case hex; upper case and 32
  // bare hex digits are accepted too). `stream`, where a call takes one, may be left empty; when
  // given it must be the subscription's stream (NotFound otherwise).

  /// Creates a subscription on any stream (source or derived) and returns its id. Every
  /// partition starts at `start`. Records pushed and not acknowledged within
  /// `visibility_timeout` (zero: the broker's default, 30 s; at most one day) are pushed again.
  /// Errors: NotFound (stream), InvalidArgument.
  Result<std::string> CreateSubscription(
      std::string_view stream, const SubscriptionStart& start,
      std::chrono::milliseconds visibility_timeout = std::chrono::milliseconds{0});
  /// Adds `n` to this connection's demand on the subscription, making the connection one of its
  /// consumers; returns the demand after the take. The broker then pushes up to that many
  /// records as they become available (NextDelivery), across partitions, in offset order within
  /// each partition. A consumer's demand is capped by the broker (docs/protocol.md).
  Result<uint64_t> Take(std::string_view subscription_id, uint64_t n, std::string_view stream = {});
  /// The next records pushed to this connection, by any subscription, waiting up to `timeout`
  /// (zero: do not wait); nullopt when none came in time. One Delivery per pushed record batch,
  /// in arrival order, decoded in the calling thread. Pushes wait in a queue of the connection
  /// that the client does not bound: it holds at most what the connection's takes asked for.
  /// Errors: IOError once the connection is closed and every delivery received before has been
  /// returned; Corruption for a push that does not decode (it is dropped; unacknowledged, it is
  /// pushed again after the visibility timeout); the broker's word on one subscription: NotFound
  /// once it ended (deleted, or its stream was), ResourceExhausted for records larger than the
  /// broker's frame limit (they stay unacknowledged and are reported again at each visibility
  /// timeout; the subscription goes on).
  Result<std::optional<Delivery>> NextDelivery(std::chrono::milliseconds timeout);
  /// Acknowledges `ranges` (all or nothing), returning once the acknowledgement is durable.
  /// Errors: InvalidArgument naming each range beyond what was pushed, or no ranges; an empty
  /// range (end <= start) is InvalidArgument before anything is sent; NotFound.
  Status Acknowledge(std::string_view subscription_id, std::span<const AckRange> ranges,
                     std::string_view stream = {});
  /// Partitions (watermark, count, next offset, unacknowledged) and consumers (demand, in
  /// flight) of one subscription. Errors: NotFound.
  Result<SubscriptionInfo> GetSubscription(std::string_view subscription_id,
                                           std::string_view stream = {});
  /// Subscriptions of `stream` (every stream when empty), without partitions and consumers.
  Result<std::vector<SubscriptionInfo>> ListSubscriptions(std::string_view stream = {});
  /// Deletes a subscription: its state is removed and its consumers get no more pushes.
  Status DeleteSubscription(std::string_view subscription_id, std::string_view stream = {});

  class Impl;

 private:
  explicit Client(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace higgins
