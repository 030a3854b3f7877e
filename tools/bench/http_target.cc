// The HTTP side of higgins-bench's produce workload: POST /v1/streams/<stream>/records
// (docs/http.md, "Produce"), written and parsed by Boost.Beast (http_wire.h).
#include <deque>

#include "codec.h"
#include "http_wire.h"

namespace higgins::bench {
namespace {

// The first bytes of an error body kept in an Outcome.
constexpr size_t kErrorBodyBytes = 300;

std::string AnswerError(const HttpAnswer& answer) {
  return "HTTP " + std::to_string(answer.status) + ": " + answer.body.substr(0, kErrorBodyBytes);
}

/// Produce requests of one row as one JSON object (`application/json`), of more as NDJSON;
/// the same row bytes as the native codec's (AppendJsonRow). Pings and queries are not spoken.
class HttpCodec final : public Codec {
 public:
  explicit HttpCodec(std::shared_ptr<const WorkloadShape> shape)
      : shape_(std::move(shape)), request_(ProduceRequest(shape_->stream)) {}

  Status Encode(const Batch& batch, std::string* out) override {
    if (batch.rows.empty()) {
      return Status::InvalidArgument("the HTTP target speaks the produce workload only");
    }
    std::string body;
    for (const Row& row : batch.rows) {
      AppendJsonRow(shape_->keys[row.key], row.seq, shape_->payload, &body);
    }
    if (batch.rows.size() == 1) {
      body.pop_back();  // one JSON object, without the NDJSON newline
      request_.set(beast_http::field::content_type, "application/json");
    } else {
      request_.set(beast_http::field::content_type, "application/x-ndjson");
    }
    SetBody(&request_, std::move(body));
    AppendHttpRequest(&request_, out);
    rows_.push_back(batch.rows.size());
    return Status::OK();
  }

  Status Consume(std::string_view bytes, std::vector<Outcome>* done) override {
    answers_.clear();
    HIGGINS_RETURN_IF_ERROR(splitter_.Consume(bytes, &answers_));
    for (const HttpAnswer& answer : answers_) {
      if (rows_.empty()) return Status::Corruption("an HTTP response to no request");
      const size_t rows = rows_.front();
      rows_.pop_front();
      Outcome outcome;
      if (answer.status != 200) {
        outcome.error = AnswerError(answer);
      } else if (Count(answer.body, "\"offset\":") != rows) {
        outcome.error = "the answer lists another number of records than " + std::to_string(rows) +
                        ": " + answer.body.substr(0, kErrorBodyBytes);
      }
      outcome.ok = outcome.error.empty();
      done->push_back(std::move(outcome));
    }
    return Status::OK();
  }

 private:
  static size_t Count(std::string_view text, std::string_view what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1)) {
      ++n;
    }
    return n;
  }

  std::shared_ptr<const WorkloadShape> shape_;
  HttpRequest request_;  // reused: only the body and its type change
  HttpResponseSplitter splitter_;
  std::vector<HttpAnswer> answers_;
  std::deque<size_t> rows_;  // of each request in flight
};

class HttpTarget final : public Target {
 public:
  explicit HttpTarget(std::shared_ptr<const WorkloadShape> shape) : shape_(std::move(shape)) {}

  std::unique_ptr<Codec> NewCodec(bool collect_positions) const override {
    (void)collect_positions;  // the query workload's prefill is not spoken over HTTP
    return std::make_unique<HttpCodec>(shape_);
  }

  /// Checks that the stream exists (GET /v1/streams/<stream>); declares nothing.
  Status Prepare(Socket* socket, bool reset, bool setup) const override {
    if (reset || setup) return Status::InvalidArgument("the HTTP target cannot declare streams");
    HttpRequest request(beast_http::verb::get, "/v1/streams/" + shape_->stream, 11);
    request.set(beast_http::field::host, "127.0.0.1");
    request.keep_alive(true);
    std::string bytes;
    AppendHttpRequest(&request, &bytes);
    HIGGINS_RETURN_IF_ERROR(socket->WriteAll(bytes));
    HttpResponseSplitter splitter;
    std::vector<HttpAnswer> answers;
    char buffer[16 * 1024];
    while (answers.empty()) {
      HIGGINS_ASSIGN_OR_RETURN(size_t n, socket->Read(buffer, sizeof(buffer)));
      if (n == 0) return Status::IOError("the broker closed the HTTP connection");
      HIGGINS_RETURN_IF_ERROR(splitter.Consume({buffer, n}, &answers));
    }
    if (answers[0].status != 200) return Status::NotFound(AnswerError(answers[0]));
    return Status::OK();
  }

 private:
  std::shared_ptr<const WorkloadShape> shape_;
};

}  // namespace

std::unique_ptr<Target> MakeHttpTarget(std::shared_ptr<const WorkloadShape> shape) {
  return std::make_unique<HttpTarget>(std::move(shape));
}

}  // namespace higgins::bench
