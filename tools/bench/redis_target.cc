// The Redis side of higgins-bench: RESP2 commands on Redis Streams, one stream per partition key
// ("<stream>:<key>"), so that Redis and Higgins hold the same records under the same keys.
#include <charconv>
#include <deque>

#include "codec.h"
#include "resp_reader.h"

namespace higgins::bench {
namespace {

void AppendBulk(std::string_view s, std::string* out) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), s.size());
  out->push_back('$');
  out->append(digits, end).append("\r\n").append(s).append("\r\n");
}

void AppendNumberBulk(uint64_t v, std::string* out) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), v);
  AppendBulk(std::string_view(digits, static_cast<size_t>(end - digits)), out);
}

std::string IdText(Position p) {
  return std::to_string(p.major) + "-" + std::to_string(p.minor);
}

std::optional<Position> ParseId(std::string_view id) {
  const size_t dash = id.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  Position p;
  auto a = std::from_chars(id.data(), id.data() + dash, p.major);
  auto b = std::from_chars(id.data() + dash + 1, id.data() + id.size(), p.minor);
  if (a.ec != std::errc() || b.ec != std::errc() || b.ptr != id.data() + id.size()) {
    return std::nullopt;
  }
  return p;
}

class RedisCodec final : public Codec {
 public:
  RedisCodec(std::shared_ptr<const WorkloadShape> shape, bool collect)
      : shape_(std::move(shape)), collect_(collect) {}

  Status Encode(const Batch& batch, std::string* out) override {
    Pending pending;
    pending.query = !batch.queries.empty();
    if (batch.rows.empty() && batch.queries.empty()) {
      out->append("*1\r\n$4\r\nPING\r\n");
      pending.replies = 1;
    } else if (!pending.query) {
      for (const Row& row : batch.rows) {
        const std::string& key = shape_->keys[row.key];
        out->append("*9\r\n$4\r\nXADD\r\n");
        AppendStreamKey(key, out);
        out->append("$1\r\n*\r\n$2\r\nid\r\n");
        AppendBulk(key, out);
        out->append("$3\r\nseq\r\n");
        AppendNumberBulk(row.seq, out);
        out->append("$7\r\npayload\r\n");
        AppendBulk(shape_->payload, out);
        if (collect_) pending.keys.push_back(row.key);
      }
      pending.replies = batch.rows.size();
    } else {
      for (const Query& query : batch.queries) {
        const std::string id = IdText(query.position);
        out->append("*6\r\n$6\r\nXRANGE\r\n");
        AppendStreamKey(shape_->keys[query.key], out);
        AppendBulk(id, out);
        AppendBulk(id, out);
        out->append("$5\r\nCOUNT\r\n$1\r\n1\r\n");
      }
      pending.replies = batch.queries.size();
    }
    pending_.push_back(std::move(pending));
    return Status::OK();
  }

  Status Consume(std::string_view bytes, std::vector<Outcome>* done) override {
    reader_.Consume(bytes);
    while (true) {
      HIGGINS_ASSIGN_OR_RETURN(std::optional<RespReply> reply, reader_.Next());
      if (!reply) return Status::OK();
      if (pending_.empty()) return Status::Corruption("a reply to no request");
      Pending& request = pending_.front();
      Take(*reply, &request);
      if (request.seen == request.replies) {
        request.outcome.ok = request.outcome.error.empty();
        done->push_back(std::move(request.outcome));
        pending_.pop_front();
      }
    }
  }

 private:
  struct Pending {
    bool query = false;
    size_t replies = 0;          // commands sent: one reply each
    size_t seen = 0;             // replies received so far
    std::vector<uint32_t> keys;  // when collecting: the key of each XADD
    Outcome outcome;
  };

  void AppendStreamKey(std::string_view key, std::string* out) const {
    const size_t length = shape_->stream.size() + 1 + key.size();
    char digits[24];
    auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), length);
    out->push_back('$');
    out->append(digits, end).append("\r\n");
    out->append(shape_->stream).append(":").append(key).append("\r\n");
  }

  void Take(const RespReply& reply, Pending* request) const {
    const size_t i = request->seen++;
    std::string error;
    if (reply.kind == '-') {
      error = reply.text;
    } else if (reply.kind == '+') {
      // PONG
    } else if (request->query) {
      if (reply.kind != '*' || reply.number < 1) error = "XRANGE returned no entry";
    } else if (reply.kind != '$') {
      error = "XADD returned no id";
    } else if (collect_) {
      auto id = ParseId(reply.text);
      if (!id) {
        error = "XADD returned the id '" + reply.text + "'";
      } else {
        request->outcome.produced.emplace_back(request->keys[i], *id);
      }
    }
    if (!error.empty() && request->outcome.error.empty()) request->outcome.error = error;
  }

  std::shared_ptr<const WorkloadShape> shape_;
  bool collect_;
  std::deque<Pending> pending_;
  RespReader reader_;
};

/// Sends one command (already in RESP) and returns its reply; nothing else may be in flight.
Result<RespReply> Call(Socket* socket, std::string_view command) {
  HIGGINS_RETURN_IF_ERROR(socket->WriteAll(command));
  RespReader reader;
  char buffer[16 * 1024];
  while (true) {
    HIGGINS_ASSIGN_OR_RETURN(std::optional<RespReply> reply, reader.Next());
    if (reply) return *std::move(reply);
    HIGGINS_ASSIGN_OR_RETURN(size_t n, socket->Read(buffer, sizeof(buffer)));
    if (n == 0) return Status::IOError("Redis closed the connection");
    reader.Consume({buffer, n});
  }
}

class RedisTarget final : public Target {
 public:
  explicit RedisTarget(std::shared_ptr<const WorkloadShape> shape) : shape_(std::move(shape)) {}

  std::unique_ptr<Codec> NewCodec(bool collect_positions) const override {
    return std::make_unique<RedisCodec>(shape_, collect_positions);
  }

  /// Streams need no declaration. `reset` empties the whole database (FLUSHDB): point the
  /// benchmark at a Redis of its own.
  Status Prepare(Socket* socket, bool reset, bool /*setup*/) const override {
    HIGGINS_ASSIGN_OR_RETURN(RespReply pong, Call(socket, "*1\r\n$4\r\nPING\r\n"));
    if (pong.kind == '-') return Status::InvalidArgument("PING: " + pong.text);
    if (reset) {
      HIGGINS_ASSIGN_OR_RETURN(RespReply r, Call(socket, "*1\r\n$7\r\nFLUSHDB\r\n"));
      if (r.kind == '-') return Status::InvalidArgument("FLUSHDB: " + r.text);
    }
    return Status::OK();
  }

 private:
  std::shared_ptr<const WorkloadShape> shape_;
};

}  // namespace

std::unique_ptr<Target> MakeRedisTarget(std::shared_ptr<const WorkloadShape> shape) {
  return std::make_unique<RedisTarget>(std::move(shape));
}

}  // namespace higgins::bench
