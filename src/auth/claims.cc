#include "auth/claims.h"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>

namespace higgins::auth {
namespace {

namespace dom = simdjson::dom;

bool Has(Mode mode, Mode bit) {
  return (static_cast<uint8_t>(mode) & static_cast<uint8_t>(bit)) != 0;
}

bool HasEveryChannel(const std::vector<std::string>& channels) {
  return std::find(channels.begin(), channels.end(), kEveryChannel) != channels.end();
}

bool Covers(const std::vector<std::string>& channels, std::string_view stream) {
  return std::any_of(channels.begin(), channels.end(), [&](const std::string& channel) {
    return channel == kEveryChannel || channel == stream;
  });
}

Status BadClaim(std::string_view claim, std::string_view rule) {
  return Status::InvalidArgument("token's \"" + std::string(claim) + "\" claim " +
                                 std::string(rule));
}

/// A NumericDate (RFC 7519 §2): an integer or a fraction of seconds, rounded up so that
/// "now < exp" and "now >= nbf" keep their meaning for whole seconds; clamped to int64_t.
Result<int64_t> NumericDate(dom::element value, std::string_view claim) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  switch (value.type()) {
    case dom::element_type::INT64: return value.get_int64().value_unsafe();
    case dom::element_type::UINT64:  // only above INT64_MAX
      return kMax;
    case dom::element_type::DOUBLE: {
      const double rounded = std::ceil(value.get_double().value_unsafe());
      // 2^63 is exactly representable; every double below it converts without overflow.
      if (rounded >= 9223372036854775808.0) return kMax;
      if (rounded < -9223372036854775808.0) return kMin;
      return static_cast<int64_t>(rounded);
    }
    default: return BadClaim(claim, "is not a number (seconds since the Unix epoch)");
  }
}

Result<Mode> ModeOf(dom::element value) {
  std::string_view text;
  if (value.get(text) == simdjson::SUCCESS) {
    if (text == "r") return Mode::kRead;
    if (text == "w") return Mode::kWrite;
    if (text == "rw") return Mode::kReadWrite;
  }
  return BadClaim("mode", "is not \"r\", \"w\" or \"rw\"");
}

void AddChannel(std::vector<std::string>* channels, std::string_view channel) {
  if (std::find(channels->begin(), channels->end(), channel) == channels->end()) {
    channels->emplace_back(channel);
  }
}

/// The claims this component reads, each seen at most once.
struct Fields {
  std::optional<dom::element> mode, channel, channels, exp, nbf;

  /// The slot of claim `key`, or nullptr for a claim that is ignored.
  std::optional<dom::element>* Slot(std::string_view key) {
    if (key == "mode") return &mode;
    if (key == "channel") return &channel;
    if (key == "channels") return &channels;
    if (key == "exp") return &exp;
    if (key == "nbf") return &nbf;
    return nullptr;
  }
};

Result<Fields> ReadFields(std::string_view payload_json, dom::parser& parser) {
  dom::object object;
  if (parser.parse(payload_json.data(), payload_json.size()).get(object) != simdjson::SUCCESS) {
    return Status::InvalidArgument("token's payload is not a JSON object");
  }
  Fields fields;
  for (dom::key_value_pair field : object) {
    std::optional<dom::element>* slot = fields.Slot(field.key);
    if (slot == nullptr) continue;
    if (slot->has_value()) return BadClaim(field.key, "appears twice");
    *slot = field.value;
  }
  return fields;
}

Status CheckTimes(const Fields& fields, int64_t now_s, Claims* claims) {
  if (fields.exp) {
    HIGGINS_ASSIGN_OR_RETURN(const int64_t exp, NumericDate(*fields.exp, "exp"));
    if (now_s >= exp) return Status::InvalidArgument("token expired at " + FormatUnixTime(exp));
    claims->expires_at_s = exp;
  }
  if (fields.nbf) {
    HIGGINS_ASSIGN_OR_RETURN(const int64_t nbf, NumericDate(*fields.nbf, "nbf"));
    if (now_s < nbf) {
      return Status::InvalidArgument("token is not valid before " + FormatUnixTime(nbf));
    }
  }
  return Status::OK();
}

Status ReadChannels(const Fields& fields, std::vector<std::string>* channels) {
  if (!fields.channel && !fields.channels) {
    return Status::InvalidArgument("token has neither a \"channel\" nor a \"channels\" claim");
  }
  if (fields.channel) {
    std::string_view channel;
    if (fields.channel->get(channel) != simdjson::SUCCESS || channel.empty()) {
      return BadClaim("channel", "is not a non-empty string");
    }
    AddChannel(channels, channel);
  }
  if (fields.channels) {
    static constexpr std::string_view kRule = "is not a non-empty array of non-empty strings";
    dom::array array;
    if (fields.channels->get(array) != simdjson::SUCCESS || array.size() == 0) {
      return BadClaim("channels", kRule);
    }
    for (dom::element element : array) {
      std::string_view channel;
      if (element.get(channel) != simdjson::SUCCESS || channel.empty()) {
        return BadClaim("channels", kRule);
      }
      AddChannel(channels, channel);
    }
  }
  return Status::OK();
}

}  // namespace

bool Claims::MayRead(std::string_view stream) const {
  return Has(mode, Mode::kRead) && Covers(channels, stream);
}

bool Claims::MayWrite(std::string_view stream) const {
  return Has(mode, Mode::kWrite) && Covers(channels, stream);
}

bool Claims::MayReadEverything() const {
  return Has(mode, Mode::kRead) && HasEveryChannel(channels);
}

bool Claims::MayWriteEverything() const {
  return Has(mode, Mode::kWrite) && HasEveryChannel(channels);
}

Result<Claims> ParseClaims(std::string_view payload_json, int64_t now_s) {
  dom::parser parser;
  HIGGINS_ASSIGN_OR_RETURN(const Fields fields, ReadFields(payload_json, parser));
  Claims claims;
  HIGGINS_RETURN_IF_ERROR(CheckTimes(fields, now_s, &claims));
  if (!fields.mode) {
    return Status::InvalidArgument("token has no \"mode\" claim (\"r\", \"w\" or \"rw\")");
  }
  HIGGINS_ASSIGN_OR_RETURN(claims.mode, ModeOf(*fields.mode));
  HIGGINS_RETURN_IF_ERROR(ReadChannels(fields, &claims.channels));
  return claims;
}

std::string FormatUnixTime(int64_t unix_s) {
  // Years 0 to 9999: from -62167219200 (0000-01-01T00:00:00Z) to 253402300799.
  if (unix_s < -62167219200 || unix_s > 253402300799) {
    return std::to_string(unix_s) + " s since the Unix epoch";
  }
  const std::time_t t = static_cast<std::time_t>(unix_s);
  std::tm tm{};
  if (gmtime_r(&t, &tm) == nullptr) return std::to_string(unix_s) + " s since the Unix epoch";
  char text[80];  // room for any int the format could print: GCC's -Wformat-truncation at -O3
  std::snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return text;
}

}  // namespace higgins::auth
