#pragma once

#include <boost/beast/http.hpp>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "auth/claims.h"
#include "broker/broker_api.h"

namespace higgins {
class SerialExecutor;
namespace auth {
class JwtVerifier;
}  // namespace auth
}  // namespace higgins

namespace higgins::server::http {

namespace beast_http = boost::beast::http;
using Request = beast_http::request<beast_http::string_body>;
using Response = beast_http::response<beast_http::string_body>;

struct HttpApiOptions {
  /// Checks tokens (docs/auth.md); null: the broker has no JWT key, and nothing asks for one.
  const auth::JwtVerifier* verifier = nullptr;
  /// Every API request needs `Authorization: Bearer <jwt>` whose claims grant what it does
  /// (needs a verifier).
  bool require_token = false;
  /// The largest request body the listener reads (413 above it), for the API's messages.
  size_t max_body_bytes = size_t{64} << 20;
};

/// The HTTP/JSON API of docs/http.md over the broker API: routes a parsed request to the broker
/// and answers it. Sans-I/O: the session (http_session.h) reads and writes the bytes. Every
/// request gets exactly one response, an error being `{"error":{"code","message"}}` with its
/// status (StatusFor). Administrative requests (configurations, modules) run on one thread of
/// their own, in arrival order, off the network threads.
///
/// Thread-safety: Handle may be called from any thread; `reply` runs once, on the calling
/// thread or on a broker or administrative thread.
class HttpApi {
 public:
  using Reply = std::function<void(Response)>;
  /// `broker` outlives the HttpApi.
  HttpApi(broker::BrokerApi* broker, HttpApiOptions options);
  ~HttpApi();  // runs the administrative requests already received

  void Handle(Request request, Reply reply);

  broker::BrokerApi* broker() const { return broker_; }
  const auth::JwtVerifier* verifier() const { return options_.verifier; }

  /// The HTTP status of a broker error: 400 invalid argument / not supported / out of range,
  /// 404 not found, 409 already exists, 429 resource exhausted, 504 deadline exceeded, 500
  /// otherwise.
  static beast_http::status StatusFor(StatusCode code);
  /// A JSON response of `status` to a request of HTTP version `version`.
  static Response JsonResponse(beast_http::status status, std::string body, unsigned version);
  static Response ErrorResponse(const Status& status, unsigned version);
  static Response ErrorResponse(beast_http::status status, std::string_view code,
                                std::string_view message, unsigned version);

 private:
  /// The claims of the request's `Authorization: Bearer` token. Errors: InvalidArgument (none,
  /// not Bearer, refused by the verifier).
  Result<auth::Claims> Authenticate(const Request& request) const;
  void Streams(const Request& request, std::string_view name, const auth::Claims* claims,
               const Reply& reply);
  void QueryRecords(const Request& request, std::string_view stream, const Reply& reply);
  /// The answer to `query`: JSON, or Arrow IPC when `arrow`.
  Response Answer(const broker::QueryRequest& query, bool arrow, unsigned version) const;
  void ProduceRecords(Request request, std::string_view stream, const Reply& reply);
  void RunAdmin(Request request, std::function<Response(const Request&)> operation,
                const Reply& reply);

  broker::BrokerApi* broker_;
  HttpApiOptions options_;
  std::unique_ptr<SerialExecutor> admin_;
};

}  // namespace higgins::server::http
