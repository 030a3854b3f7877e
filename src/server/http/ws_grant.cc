#include "server/http/ws_grant.h"

#include <charconv>

#include "auth/jwt_verifier.h"
#include "server/http/request_target.h"

namespace higgins::server::http {
namespace {

using boost::beast::http::status;

std::optional<WsGrant> Refuse(WsRefusal* refusal, status code, std::string name,
                              std::string message) {
  *refusal = WsRefusal{code, std::move(name), std::move(message)};
  return std::nullopt;
}

}  // namespace

std::optional<WsGrant> DecideWebSocket(std::string_view target, const auth::JwtVerifier* verifier,
                                       int64_t now_s, WsRefusal* refusal) {
  auto parsed = ParseTarget(target);
  if (!parsed.ok()) {
    return Refuse(refusal, status::bad_request, "invalid_argument", parsed.status().message());
  }
  const std::vector<std::string>& s = parsed->segments;
  if (s.size() < 3 || s.size() > 4 || s[0] != "v1" || s[1] != "ws") {
    return Refuse(refusal, status::not_found, "not_found",
                  "WebSocket channels are /v1/ws/{stream}, /v1/ws/{stream}/{jwt} and "
                  "/v1/ws/{jwt}");
  }
  WsGrant grant;
  std::optional<std::string> token;
  std::string stream;
  if (s.size() == 4) {
    stream = s[2];
    token = s[3];
  } else if (verifier != nullptr && auth::LooksLikeJwt(s[2])) {
    token = s[2];
  } else {
    stream = s[2];
  }
  if (!token) {
    if (verifier != nullptr) {
      return Refuse(refusal, status::unauthorized, "unauthorized",
                    "this broker requires a token: connect to /v1/ws/" + stream + "/{jwt}");
    }
    grant.streams = {stream};
    grant.read = true;
    grant.write = true;
  } else {
    if (verifier == nullptr) {
      return Refuse(refusal, status::unauthorized, "unauthorized",
                    "this broker has no JWT key to check tokens with (--jwt-secret-file or "
                    "--jwt-public-key-file): connect to /v1/ws/{stream}");
    }
    auto claims = verifier->Verify(*token, now_s);
    if (!claims.ok()) {
      return Refuse(refusal, status::unauthorized, "unauthorized", claims.status().message());
    }
    grant.expires_at_s = claims->expires_at_s;
    if (!stream.empty()) {
      grant.streams = {stream};
      grant.read = claims->MayRead(stream);
      grant.write = claims->MayWrite(stream);
      if (!grant.read && !grant.write) {
        return Refuse(refusal, status::forbidden, "forbidden",
                      "the token grants nothing of stream '" + stream + "'");
      }
    } else {
      for (const std::string& channel : claims->channels) {
        if (channel == auth::kEveryChannel) {
          return Refuse(refusal, status::bad_request, "invalid_argument",
                        "the token's channel is \"*\" (every stream): name the stream in the "
                        "path, /v1/ws/{stream}/{jwt}");
        }
      }
      grant.streams = claims->channels;
      grant.read = claims->mode != auth::Mode::kWrite;
      grant.write = claims->mode != auth::Mode::kRead && grant.streams.size() == 1;
      if (!grant.read && !grant.write) {
        return Refuse(refusal, status::forbidden, "forbidden",
                      "a write-only token for several streams grants nothing here: write "
                      "through /v1/ws/{stream}/{jwt}");
      }
    }
  }
  if (auto key = parsed->Param("key")) grant.key = std::string(*key);
  if (auto batch = parsed->Param("batch")) {
    if (*batch != "true" && *batch != "false") {
      return Refuse(refusal, status::bad_request, "invalid_argument",
                    "parameter 'batch' must be true or false");
    }
    grant.batch = *batch == "true";
  }
  if (auto from = parsed->Param("from")) {
    if (*from == "latest") {
      grant.from = WsGrant::From::kLatest;
    } else if (*from == "beginning") {
      grant.from = WsGrant::From::kBeginning;
    } else {
      uint64_t n = 0;
      const auto [end, ec] = std::from_chars(from->data(), from->data() + from->size(), n);
      if (from->empty() || ec != std::errc() || end != from->data() + from->size()) {
        return Refuse(refusal, status::bad_request, "invalid_argument",
                      "parameter 'from' must be beginning, latest or an offset");
      }
      if (grant.key.empty()) {
        return Refuse(refusal, status::bad_request, "invalid_argument",
                      "from=<offset> needs key=<partition key>: offsets are per partition");
      }
      grant.from = WsGrant::From::kOffset;
      grant.from_offset = n;
    }
  }
  return grant;
}

}  // namespace higgins::server::http
