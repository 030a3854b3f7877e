#include "client/address.h"

#include <charconv>

namespace higgins::client_internal {

namespace {

Status BadAddress(std::string_view address, std::string_view why) {
  return Status::InvalidArgument("bad broker address '" + std::string(address) + "': " +
                                 std::string(why) + " (expected host:port or [v6-address]:port)");
}

}  // namespace

Result<HostPort> ParseAddress(std::string_view address) {
  HostPort out;
  std::string_view port_text;
  if (!address.empty() && address.front() == '[') {
    const size_t close = address.find(']');
    if (close == std::string_view::npos) return BadAddress(address, "no closing ']'");
    if (close + 1 >= address.size() || address[close + 1] != ':') {
      return BadAddress(address, "no port after ']'");
    }
    out.host = std::string(address.substr(1, close - 1));
    port_text = address.substr(close + 2);
  } else {
    const size_t colon = address.rfind(':');
    if (colon == std::string_view::npos) return BadAddress(address, "no port");
    out.host = std::string(address.substr(0, colon));
    if (out.host.find(':') != std::string::npos) {
      return BadAddress(address, "an IPv6 address needs brackets");
    }
    port_text = address.substr(colon + 1);
  }
  if (out.host.empty()) return BadAddress(address, "no host");
  unsigned port = 0;
  const auto [end, ec] =
      std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port == 0 ||
      port > 65535) {
    return BadAddress(address, "the port must be a number from 1 to 65535");
  }
  out.port = static_cast<uint16_t>(port);
  return out;
}

std::string FormatAddress(std::string_view host, uint16_t port) {
  std::string out;
  if (host.find(':') != std::string_view::npos) {
    out = "[" + std::string(host) + "]";
  } else {
    out = std::string(host);
  }
  return out + ":" + std::to_string(port);
}

}  // namespace higgins::client_internal
