#include "server/http/http_api.h"

#include <charconv>
#include <exception>

#include "arrow/json/json_writer.h"
#include "arrow/json/temporal.h"
#include "auth/jwt_verifier.h"
#include "common/serial_executor.h"
#include "server/http/json_replies.h"
#include "server/http/request_target.h"
#include "server/wire_replies.h"
#include "web/console_assets.h"

namespace higgins::server::http {
namespace {

using beast_http::field;
using beast_http::status;
using beast_http::verb;

constexpr std::string_view kJson = "application/json";
constexpr std::string_view kNdjson = "application/x-ndjson";
constexpr std::string_view kArrowStream = "application/vnd.apache.arrow.stream";
// The longest read-your-writes wait a query may ask for (`wait=`), in ms.
constexpr uint64_t kMaxWaitMs = 60'000;

// What the web console's pages may load and connect to: their own origin only (web/README.md).
constexpr std::string_view kConsolePolicy =
    "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
    "frame-ancestors 'none'";

/// A web console file (web/console/), with headers that keep browsers from guessing its type,
/// caching a stale copy after an upgrade, or framing it.
Response ConsoleResponse(const web::Asset& asset, unsigned version) {
  Response response(status::ok, version);
  response.set(field::content_type, asset.content_type);
  response.set(field::cache_control, "no-cache");
  response.set("X-Content-Type-Options", "nosniff");
  response.set("Content-Security-Policy", kConsolePolicy);
  response.body() = std::string(asset.bytes);
  response.prepare_payload();
  return response;
}

/// The media type of a Content-Type or Accept value, without parameters, lower case.
std::string MediaType(std::string_view value) {
  const size_t semicolon = value.find(';');
  std::string_view type = value.substr(0, semicolon);
  while (!type.empty() && (type.back() == ' ' || type.back() == '\t')) type.remove_suffix(1);
  while (!type.empty() && (type.front() == ' ' || type.front() == '\t')) type.remove_prefix(1);
  std::string out(type);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool Accepts(const Request& request, std::string_view media_type) {
  const std::string_view accept = request[field::accept];
  size_t start = 0;
  while (start < accept.size()) {
    size_t end = accept.find(',', start);
    if (end == std::string_view::npos) end = accept.size();
    if (MediaType(accept.substr(start, end - start)) == media_type) return true;
    start = end + 1;
  }
  return false;
}

Result<uint64_t> ParseUint(std::string_view name, std::string_view text) {
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return Status::InvalidArgument("parameter '" + std::string(name) +
                                   "' must be a non-negative integer, not '" + std::string(text) +
                                   "'");
  }
  return value;
}

/// `time=`: ms since the Unix epoch, or an RFC 3339 time.
Result<int64_t> ParseTime(std::string_view text) {
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos) {
    HIGGINS_ASSIGN_OR_RETURN(uint64_t ms, ParseUint("time", text));
    if (ms > static_cast<uint64_t>(INT64_MAX)) return Status::InvalidArgument("time is too large");
    return static_cast<int64_t>(ms);
  }
  auto parsed = arrow::json::ParseTimestamp(text, arrow::TimeUnit::kMilli);
  if (!parsed.ok()) {
    return Status::InvalidArgument(
        "parameter 'time' must be ms since the Unix epoch or an RFC "
        "3339 time, not '" +
        std::string(text) + "'");
  }
  if (*parsed < 0) return Status::InvalidArgument("parameter 'time' is before 1970");
  return *parsed;
}

/// The query of GET /v1/streams/{stream}/records (docs/http.md, "Query records").
Result<broker::QueryRequest> QueryOf(std::string_view stream, const RequestTarget& target) {
  broker::QueryRequest query;
  query.stream = std::string(stream);
  const auto key = target.Param("key");
  if (!key) return Status::InvalidArgument("parameter 'key' (the partition key) is missing");
  query.key = std::string(*key);
  const auto offset = target.Param("offset");
  const auto latest = target.Param("latest");
  const auto from = target.Param("from");
  const auto to = target.Param("to");
  const auto time = target.Param("time");
  const int given = (offset ? 1 : 0) + (latest ? 1 : 0) + (from ? 1 : 0) + (time ? 1 : 0);
  if (given > 1) {
    return Status::InvalidArgument("give one of 'offset', 'latest', 'from' (with 'to') and 'time'");
  }
  if (to && !from) return Status::InvalidArgument("parameter 'to' needs 'from'");
  if (latest || (offset && *offset == "latest") || given == 0) {
    query.kind = broker::QueryRequest::Kind::kLatest;
  } else if (offset) {
    HIGGINS_ASSIGN_OR_RETURN(uint64_t n, ParseUint("offset", *offset));
    query.kind = broker::QueryRequest::Kind::kOffset;
    query.offset = Offset{n};
  } else if (from) {
    HIGGINS_ASSIGN_OR_RETURN(uint64_t n, ParseUint("from", *from));
    query.kind = broker::QueryRequest::Kind::kRange;
    query.offset = Offset{n};
    if (to) {
      HIGGINS_ASSIGN_OR_RETURN(uint64_t end, ParseUint("to", *to));
      if (end < n) return Status::InvalidArgument("'to' is before 'from'");
      query.end = Offset{end};
    }
  } else {
    HIGGINS_ASSIGN_OR_RETURN(query.timestamp_ms, ParseTime(*time));
    query.kind = broker::QueryRequest::Kind::kTimestamp;
  }
  return query;
}

std::string AllowedMethods(std::span<const verb> methods) {
  std::string out;
  for (verb v : methods) {
    if (!out.empty()) out += ", ";
    out += std::string(beast_http::to_string(v));
  }
  return out;
}

}  // namespace

HttpApi::HttpApi(broker::BrokerApi* broker, HttpApiOptions options)
    : broker_(broker), options_(options), admin_(std::make_unique<SerialExecutor>()) {}

HttpApi::~HttpApi() = default;

status HttpApi::StatusFor(StatusCode code) {
  switch (code) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kNotSupported:
    case StatusCode::kOutOfRange: return status::bad_request;
    case StatusCode::kNotFound: return status::not_found;
    case StatusCode::kAlreadyExists: return status::conflict;
    case StatusCode::kResourceExhausted: return status::too_many_requests;
    case StatusCode::kDeadlineExceeded: return status::gateway_timeout;
    default: return status::internal_server_error;
  }
}

Response HttpApi::JsonResponse(status code, std::string body, unsigned version) {
  Response response(code, version);
  response.set(field::content_type, kJson);
  response.set(field::cache_control, "no-store");
  response.body() = std::move(body);
  response.prepare_payload();
  return response;
}

Response HttpApi::ErrorResponse(const Status& error, unsigned version) {
  return JsonResponse(StatusFor(error.code()), ErrorJson(error), version);
}

Response HttpApi::ErrorResponse(status code, std::string_view name, std::string_view message,
                                unsigned version) {
  return JsonResponse(code, ErrorJson(HttpError{name, message}), version);
}

void HttpApi::Handle(Request request, Reply reply) {
  const unsigned version = request.version();
  try {
    auto target = ParseTarget(request.target());
    if (!target.ok()) return reply(ErrorResponse(target.status(), version));
    const std::vector<std::string>& s = target->segments;
    const verb method = request.method();
    // The web console's files need no token (docs/http.md, "Tokens for the HTTP API").
    const std::string_view path = request.target().substr(0, request.target().find('?'));
    if (const web::Asset* asset = web::FindConsoleAsset(path)) {
      if (method != verb::get) {
        Response response =
            ErrorResponse(status::method_not_allowed, "method_not_allowed",
                          std::string(request.method_string()) + " is not allowed on " +
                              std::string(path) + " (allowed: GET)",
                          version);
        response.set(field::allow, "GET");
        return reply(std::move(response));
      }
      return reply(ConsoleResponse(*asset, version));
    }
    // With require_token, the token's claims decide (docs/http.md, "Tokens").
    std::optional<auth::Claims> claims;
    if (options_.require_token && options_.verifier != nullptr) {
      auto verified = Authenticate(request);
      if (!verified.ok()) {
        Response response = ErrorResponse(status::unauthorized, "unauthorized",
                                          verified.status().message(), version);
        response.set(field::www_authenticate, "Bearer");
        return reply(std::move(response));
      }
      claims = *std::move(verified);
    }
    // Whether the token allows reading (`write` false) or writing `stream` ("*": every stream).
    auto forbidden = [&](std::string_view stream, bool write) {
      if (!claims) return false;
      bool ok = false;
      if (stream == "*") {
        ok = write ? claims->MayWriteEverything() : claims->MayReadEverything();
      } else {
        ok = write ? claims->MayWrite(stream) : claims->MayRead(stream);
      }
      if (ok) return false;
      reply(ErrorResponse(status::forbidden, "forbidden",
                          std::string("the token does not allow ") +
                              (write ? "writing " : "reading ") +
                              (stream == "*" ? std::string("every stream")
                                             : "stream '" + std::string(stream) + "'"),
                          version));
      return true;
    };
    // Which methods a path takes, for 405.
    auto wrong_method = [&](std::initializer_list<verb> allowed) {
      Response response = ErrorResponse(status::method_not_allowed, "method_not_allowed",
                                        std::string(request.method_string()) +
                                            " is not allowed on " + std::string(request.target()) +
                                            " (allowed: " + AllowedMethods(allowed) + ")",
                                        version);
      response.set(field::allow, AllowedMethods(allowed));
      reply(std::move(response));
    };
    if (s.size() >= 2 && s[0] == "v1" && s[1] == "streams") {
      if (s.size() <= 3) {
        if (method != verb::get) return wrong_method({verb::get});
        if (s.size() == 3 && forbidden(s[2], false)) return;
        return Streams(request, s.size() == 3 ? std::string_view(s[2]) : std::string_view(),
                       claims ? &*claims : nullptr, reply);
      }
      if (s.size() == 4 && s[3] == "records") {
        if (method == verb::get) {
          if (forbidden(s[2], false)) return;
          return QueryRecords(request, s[2], reply);
        }
        if (method == verb::post) {
          if (forbidden(s[2], true)) return;
          return ProduceRecords(std::move(request), s[2], reply);
        }
        return wrong_method({verb::get, verb::post});
      }
    } else if (s.size() == 2 && s[0] == "v1" && s[1] == "topography") {
      if (method != verb::get) return wrong_method({verb::get});
      if (forbidden("*", false)) return;
      Response response(status::ok, version);
      response.set(field::content_type, "application/toml");
      response.body() = broker_->TopographyToml();
      response.prepare_payload();
      return reply(std::move(response));
    } else if (s.size() >= 2 && s[0] == "v1" && s[1] == "configurations") {
      if (forbidden("*", true)) return;
      if (s.size() == 2) {
        if (method != verb::post) return wrong_method({verb::post});
        return RunAdmin(
            std::move(request),
            [this](const Request& r) {
              auto outcome = broker_->CreateConfiguration(r.body());
              if (!outcome.ok()) return ErrorResponse(outcome.status(), r.version());
              std::string body = "{\"added_storages\":";
              const auto list = [&body](const std::vector<std::string>& names) {
                body.push_back('[');
                for (size_t i = 0; i < names.size(); ++i) {
                  if (i > 0) body.push_back(',');
                  arrow::json::AppendJsonString(names[i], &body);
                }
                body.push_back(']');
              };
              list(outcome->merged.added_storages);
              body += ",\"added_schemas\":";
              list(outcome->merged.added_schemas);
              body += ",\"added_streams\":";
              list(outcome->merged.added_streams);
              body += "}";
              return JsonResponse(status::ok, std::move(body), r.version());
            },
            reply);
      }
      if (s.size() == 3) {
        if (method != verb::delete_) return wrong_method({verb::delete_});
        return RunAdmin(
            std::move(request),
            [this, key = s[2]](const Request& r) {
              Status deleted = broker_->DeleteConfiguration(key);
              if (!deleted.ok()) return ErrorResponse(deleted, r.version());
              std::string body = "{\"deleted\":";
              arrow::json::AppendJsonString(key, &body);
              body += "}";
              return JsonResponse(status::ok, std::move(body), r.version());
            },
            reply);
      }
    } else if (s.size() == 3 && s[0] == "v1" && s[1] == "modules") {
      if (method != verb::put && method != verb::post) return wrong_method({verb::put, verb::post});
      if (forbidden("*", true)) return;
      return RunAdmin(
          std::move(request),
          [this, name = s[2]](const Request& r) {
            auto uploaded = broker_->UploadModule(name, r.body());
            if (!uploaded.ok()) return ErrorResponse(uploaded.status(), r.version());
            std::string body = "{\"module\":";
            arrow::json::AppendJsonString(name, &body);
            body += ",\"version\":" + std::to_string(*uploaded) + "}";
            return JsonResponse(status::ok, std::move(body), r.version());
          },
          reply);
    }
    return reply(ErrorResponse(status::not_found, "not_found",
                               "no such endpoint: " + std::string(request.method_string()) + " " +
                                   std::string(request.target()) + " (docs/http.md lists them)",
                               version));
  } catch (const std::exception& e) {
    reply(ErrorResponse(status::internal_server_error, "internal",
                        std::string("the broker failed on this request: ") + e.what(), version));
  }
}

Result<auth::Claims> HttpApi::Authenticate(const Request& request) const {
  const std::string_view header = request[field::authorization];
  if (header.empty()) {
    return Status::InvalidArgument(
        "this broker requires a token: send Authorization: Bearer <jwt>");
  }
  constexpr std::string_view kBearer = "Bearer ";
  if (header.size() <= kBearer.size() ||
      !boost::beast::iequals(header.substr(0, kBearer.size()), kBearer)) {
    return Status::InvalidArgument("the Authorization header must be Bearer <jwt>");
  }
  const int64_t now_s = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
  return options_.verifier->Verify(header.substr(kBearer.size()), now_s);
}

void HttpApi::Streams(const Request& request, std::string_view name, const auth::Claims* claims,
                      const Reply& reply) {
  auto metadata = broker_->Metadata(name);
  if (!metadata.ok()) return reply(ErrorResponse(metadata.status(), request.version()));
  if (claims != nullptr) {  // only the streams the token may read
    std::erase_if(*metadata,
                  [claims](const broker::StreamInfo& info) { return !claims->MayRead(info.name); });
  }
  if (name.empty())
    return reply(JsonResponse(status::ok, StreamsJson(*metadata), request.version()));
  if (metadata->empty()) {
    return reply(
        ErrorResponse(Status::NotFound("stream '" + std::string(name) + "'"), request.version()));
  }
  std::string body;
  AppendStreamJson(metadata->front(), &body);
  reply(JsonResponse(status::ok, std::move(body), request.version()));
}

void HttpApi::QueryRecords(const Request& request, std::string_view stream, const Reply& reply) {
  auto target = ParseTarget(request.target());
  if (!target.ok()) return reply(ErrorResponse(target.status(), request.version()));
  auto query = QueryOf(stream, *target);
  if (!query.ok()) return reply(ErrorResponse(query.status(), request.version()));
  const bool arrow = Accepts(request, kArrowStream);
  if (const auto wait = target->Param("wait")) {
    // Read-your-writes: first let the derived stream catch up with what its inputs hold for
    // the key (BrokerApi::WaitForQuery), at most `wait` ms.
    auto ms = ParseUint("wait", *wait);
    if (!ms.ok()) return reply(ErrorResponse(ms.status(), request.version()));
    if (*ms > kMaxWaitMs) {
      return reply(ErrorResponse(
          Status::InvalidArgument("parameter 'wait' is over " + std::to_string(kMaxWaitMs) + " ms"),
          request.version()));
    }
    const unsigned version = request.version();
    const std::string key = query->key;
    broker_->WaitForQuery(
        stream, key, std::chrono::milliseconds(*ms),
        [this, query = *std::move(query), arrow, version, reply](const Status& waited) {
          if (!waited.ok()) return reply(ErrorResponse(waited, version));
          reply(Answer(query, arrow, version));
        });
    return;
  }
  reply(Answer(*query, arrow, request.version()));
}

Response HttpApi::Answer(const broker::QueryRequest& query, bool arrow, unsigned version) const {
  auto answer = broker_->Query(query);
  if (!answer.ok()) return ErrorResponse(answer.status(), version);
  if (arrow) {
    const stream::QueryRows& rows = answer->window ? answer->window->members : answer->rows;
    auto ipc = EncodeIpc(answer->schema, &rows.batch);
    if (!ipc.ok()) return ErrorResponse(ipc.status(), version);
    Response response(status::ok, version);
    response.set(field::content_type, kArrowStream);
    response.set("Higgins-First-Offset", std::to_string(rows.first_offset));
    response.body() = *std::move(ipc);
    response.prepare_payload();
    return response;
  }
  return JsonResponse(status::ok, QueryJson(query, *answer), version);
}

void HttpApi::ProduceRecords(Request request, std::string_view stream, const Reply& reply) {
  const std::string type = MediaType(request[field::content_type]);
  stream::PayloadFormat format = stream::PayloadFormat::kAuto;
  if (type == kJson || type == kNdjson || type == "application/jsonl" ||
      type == "application/json-seq") {
    format = stream::PayloadFormat::kJson;
  } else if (type == kArrowStream) {
    format = stream::PayloadFormat::kArrowIpc;
  } else if (!type.empty() && type != "application/x-www-form-urlencoded") {
    // curl -d sends application/x-www-form-urlencoded unless told otherwise: taken as
    // auto-detected, like no Content-Type at all.
    return reply(ErrorResponse(status::unsupported_media_type, "unsupported_media_type",
                               "Content-Type '" + type + "' is not a record format: send " +
                                   std::string(kJson) + ", " + std::string(kNdjson) + " or " +
                                   std::string(kArrowStream),
                               request.version()));
  }
  if (request.body().empty()) {
    return reply(ErrorResponse(Status::InvalidArgument("the request has no body: send records"),
                               request.version()));
  }
  auto shared = std::make_shared<Request>(std::move(request));
  const std::string_view payload = shared->body();
  broker_->Produce(stream, payload, format, [shared, reply](Result<stream::ProduceResult> result) {
    if (!result.ok()) {
      // A produce reads no stored data: Corruption is the body's (a damaged Arrow IPC
      // stream), the client's fault.
      const Status& error = result.status();
      const status code =
          error.code() == StatusCode::kCorruption ? status::bad_request : StatusFor(error.code());
      return reply(JsonResponse(code, ErrorJson(error), shared->version()));
    }
    reply(JsonResponse(status::ok, ProduceJson(*result), shared->version()));
  });
}

void HttpApi::RunAdmin(Request request, std::function<Response(const Request&)> operation,
                       const Reply& reply) {
  auto shared = std::make_shared<Request>(std::move(request));
  const unsigned version = shared->version();
  const bool posted = admin_->Post([shared, operation = std::move(operation), reply] {
    Response response;
    try {
      response = operation(*shared);
    } catch (const std::exception& e) {
      response = ErrorResponse(status::internal_server_error, "internal",
                               std::string("the broker failed on this request: ") + e.what(),
                               shared->version());
    }
    reply(std::move(response));
  });
  if (!posted) {
    reply(ErrorResponse(status::service_unavailable, "unavailable", "the broker is stopping",
                        version));
  }
}

}  // namespace higgins::server::http
