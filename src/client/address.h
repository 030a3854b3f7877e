#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "higgins/result.h"

namespace higgins::client_internal {

/// A broker's host (name or literal address, IPv6 without brackets) and TCP port.
struct HostPort {
  std::string host;
  uint16_t port = 0;
};

/// Parses "host:port" or "[v6-address]:port". The port is 1 to 65535. Errors: InvalidArgument
/// quoting the text.
Result<HostPort> ParseAddress(std::string_view address);

/// "host:port", or "[host]:port" when the host contains a colon (an IPv6 literal).
std::string FormatAddress(std::string_view host, uint16_t port);

}  // namespace higgins::client_internal
