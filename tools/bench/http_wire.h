#pragma once

// HTTP/1.1 for the load generator, written and parsed by Boost.Beast (no HTTP code of our own):
// the produce requests of the broker's HTTP API (docs/http.md, "Produce") as bytes, and the
// responses split from the bytes a connection returns. Sans-I/O.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "beast.h"
#include "higgins/status.h"

namespace higgins::bench {

using HttpRequest = beast_http::request<beast_http::string_body>;

/// A `POST /v1/streams/<stream>/records` to the broker on 127.0.0.1 (Host), with `Content-Type:
/// application/json` and keep-alive, without a body yet: set one with SetBody.
HttpRequest ProduceRequest(std::string_view stream);
/// Replaces the request's body (and its Content-Length).
void SetBody(HttpRequest* request, std::string body);
/// Appends the request's bytes, as Beast serializes them, to `out`.
void AppendHttpRequest(HttpRequest* request, std::string* out);

/// One response of a connection: its status code and body.
struct HttpAnswer {
  unsigned status = 0;
  std::string body;
};

/// Splits the bytes of one connection into responses, in order (Beast's response parser, fed
/// whatever the socket returned). One per connection; not thread-safe.
class HttpResponseSplitter {
 public:
  /// Appends each response that `bytes` completes to `out`. Errors: Corruption when the bytes
  /// are not HTTP/1.1 responses (the connection must be dropped).
  Status Consume(std::string_view bytes, std::vector<HttpAnswer>* out);

 private:
  std::string pending_;  // bytes not yet taken by the parser
  std::optional<beast_http::response_parser<beast_http::string_body>> parser_;
};

}  // namespace higgins::bench
