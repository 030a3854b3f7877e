#pragma once

#include <boost/beast/http/status.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "higgins/result.h"

namespace higgins::auth {
class JwtVerifier;
}

namespace higgins::server::http {

/// What a WebSocket connection may do, decided at the handshake from its target and token
/// (docs/http.md, "WebSocket channels").
struct WsGrant {
  enum class From : uint8_t { kLatest, kBeginning, kOffset };
  std::vector<std::string> streams;  // read these (one, unless /v1/ws/{jwt} names several)
  bool read = false;
  bool write = false;  // produce to streams[0] (only when streams has one)
  std::optional<int64_t> expires_at_s;
  From from = From::kLatest;
  uint64_t from_offset = 0;  // From::kOffset: in partition `key`
  std::string key;           // only this partition (empty: every partition)
  /// Each message carries a JSON array of the records pushed together, not one record.
  bool batch = false;
};

/// Why a handshake is refused: the HTTP status and the error's code and message.
struct WsRefusal {
  boost::beast::http::status status;
  std::string code;
  std::string message;
};

/// Decides a WebSocket request for `target` (`/v1/ws/{stream}`, `/v1/ws/{stream}/{jwt}` or
/// `/v1/ws/{jwt}`, with `from=`, `key=` and `batch=`) at time `now_s` (seconds since the Unix
/// epoch). `verifier` null: the broker has no JWT key, and `/v1/ws/{stream}` may read and write
/// (tokens are refused). Otherwise a valid token is required, and its claims decide. Refusals:
/// 400 bad target or parameters, 401 no or bad token, 403 a token that grants nothing of the
/// stream, 404 not a WebSocket path.
std::optional<WsGrant> DecideWebSocket(std::string_view target, const auth::JwtVerifier* verifier,
                                       int64_t now_s, WsRefusal* refusal);

}  // namespace higgins::server::http
