#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "higgins/result.h"

namespace higgins::auth {

/// What a token allows on its channels: claim "mode", "r", "w" or "rw". A bit set.
enum class Mode : uint8_t { kRead = 1, kWrite = 2, kReadWrite = 3 };

/// The channel that stands for every stream.
inline constexpr std::string_view kEveryChannel = "*";

/// The grants of a verified token (docs/auth.md, "Claims"). A plain value: copyable, and safe to
/// read from many threads.
struct Claims {
  Mode mode = Mode::kRead;
  /// Claim "channel" (one string) and claim "channels" (an array of strings), merged in that
  /// order without repeats; never empty, no element empty. kEveryChannel means every stream.
  std::vector<std::string> channels;
  /// Claim "exp", seconds since the Unix epoch (a fractional "exp" is rounded up); absent: the
  /// token never expires.
  std::optional<int64_t> expires_at_s;

  /// The mode has r and the stream is one of the channels (or the channels hold "*").
  bool MayRead(std::string_view stream) const;
  /// The mode has w and the stream is one of the channels (or the channels hold "*").
  bool MayWrite(std::string_view stream) const;
  /// The mode has r and the channels hold "*".
  bool MayReadEverything() const;
  /// The mode has w and the channels hold "*".
  bool MayWriteEverything() const;

  friend bool operator==(const Claims&, const Claims&) = default;
};

/// The claims of a token's payload, the JSON text of one object, checked at `now_s` (seconds
/// since the Unix epoch): "mode" must be "r", "w" or "rw"; "channel" a non-empty string and/or
/// "channels" a non-empty array of non-empty strings; "exp" and "nbf", when present, numbers
/// with nbf <= now_s < exp. Other claims are ignored. Errors: InvalidArgument with a short
/// message that names the claim but never quotes the payload. Does not check a signature: the
/// caller (JwtVerifier) has. Pure, thread-safe.
Result<Claims> ParseClaims(std::string_view payload_json, int64_t now_s);

/// `unix_s` as an RFC 3339 UTC date-time ("2024-05-01T12:00:00Z"); a time outside the years 0
/// to 9999 as "<n> s since the Unix epoch".
std::string FormatUnixTime(int64_t unix_s);

}  // namespace higgins::auth
