#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "higgins/result.h"
#include "socket.h"

namespace higgins::bench {

/// Where a produced row can be read back: a Higgins offset (`major`), or a Redis stream entry
/// id `<major>-<minor>`.
struct Position {
  uint64_t major = 0;
  uint64_t minor = 0;
};

/// One row of a produce request: its partition key (an index into WorkloadShape::keys) and its
/// `seq` field.
struct Row {
  uint32_t key = 0;
  uint64_t seq = 0;
};

/// One point read: the row of `key` at `position`.
struct Query {
  uint32_t key = 0;
  Position position;
};

/// The logical content of one request: rows to produce, point reads, or (both empty) a ping.
/// The runner counts `rows.size() + queries.size()` records per request.
struct Batch {
  std::vector<Row> rows;
  std::vector<Query> queries;
};

/// The outcome of one request, as the codec decoded its reply (or replies).
struct Outcome {
  bool ok = true;
  /// When !ok: the first error text of the reply.
  std::string error;
  /// Only when the codec collects positions: where each produced row landed, as (key, position).
  std::vector<std::pair<uint32_t, Position>> produced;
};

/// What every request of a run looks like. Immutable once the run starts; shared by all
/// connections.
struct WorkloadShape {
  std::string stream;
  std::vector<std::string> keys;  // partition keys "k0".."k{n-1}"
  std::string payload;            // the `payload` field of every produced row
  bool arrow = false;             // Higgins: Arrow IPC produce payloads instead of NDJSON
};

/// Encodes the requests of one connection and decodes its replies, both in order. Sans-I/O:
/// bytes out, bytes in. One per connection; not thread-safe.
class Codec {
 public:
  virtual ~Codec() = default;

  /// Appends the bytes of one request to `out`. Its replies follow those of every request
  /// encoded before it on this codec.
  virtual Status Encode(const Batch& batch, std::string* out) = 0;

  /// Takes reply bytes as the socket returned them; appends one Outcome per request whose
  /// replies are now complete, in request order. An error reply is an Outcome with !ok.
  /// Errors: Corruption when the bytes are not a valid reply stream (the connection must be
  /// dropped).
  virtual Status Consume(std::string_view bytes, std::vector<Outcome>* done) = 0;
};

/// A system under test: how to talk to it. Thread-safe (const).
class Target {
 public:
  virtual ~Target() = default;

  /// A codec for a new connection. With `collect_positions`, Outcomes of produces list where
  /// each row landed (for the query workload's prefill).
  virtual std::unique_ptr<Codec> NewCodec(bool collect_positions) const = 0;

  /// Runs before the load, on a connection of its own. `reset` drops the stream's data first;
  /// `setup` declares what the run needs. Errors: IOError, or the target's error reply.
  virtual Status Prepare(Socket* socket, bool reset, bool setup) const = 0;
};

/// The Higgins broker: ProduceRequest (NDJSON or Arrow IPC) and GetIndexRequest OFFSET.
std::unique_ptr<Target> MakeHigginsTarget(std::shared_ptr<const WorkloadShape> shape);
/// Redis Streams over RESP2: XADD per row (a request's rows pipelined), XRANGE id id COUNT 1.
std::unique_ptr<Target> MakeRedisTarget(std::shared_ptr<const WorkloadShape> shape);
/// The broker's HTTP API (http_target.cc): produce only, one POST /v1/streams/<stream>/records
/// per request (one row: a JSON object; more: NDJSON).
std::unique_ptr<Target> MakeHttpTarget(std::shared_ptr<const WorkloadShape> shape);

/// A produced row as NDJSON, {"id":"<key>","seq":<seq>,"payload":"<payload>"} and a newline,
/// appended to `out`: the same bytes whichever protocol carries it.
void AppendJsonRow(std::string_view key, uint64_t seq, std::string_view payload, std::string* out);

/// The key index of "k<digits>", or nullopt.
std::optional<uint32_t> ParseKeyIndex(std::string_view key);

}  // namespace higgins::bench
