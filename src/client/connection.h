#pragma once

#include <chrono>
#include <string_view>

#include "client/address.h"
#include "client/unique_fd.h"
#include "higgins/result.h"

namespace higgins::client_internal {

/// Resolves `target.host` (getaddrinfo, IPv4 and IPv6) and connects to the first address that
/// accepts, all within `timeout` (zero: the operating system's own limits). The socket returned
/// is blocking, close-on-exec, with TCP_NODELAY set.
///
/// Errors name the address as "host:port": IOError when the name does not resolve or no address
/// accepts (with the system's reason, e.g. "Connection refused"); DeadlineExceeded when the
/// time runs out. A name lookup that is abandoned at the deadline finishes in a detached thread
/// (getaddrinfo cannot be cancelled); literal addresses never start one.
Result<UniqueFd> ConnectTcp(const HostPort& target, std::chrono::milliseconds timeout);

/// Writes all of `bytes` to the blocking socket `fd` (MSG_NOSIGNAL: a closed peer is an error,
/// not SIGPIPE). Errors: DeadlineExceeded when the socket's SO_SNDTIMEO passes without
/// progress, IOError otherwise. Bytes may have been written when it fails.
Status SendAll(int fd, std::string_view bytes);

/// Bounds each blocking send on `fd` by `timeout` (SO_SNDTIMEO); zero leaves sends unbounded.
Status SetSendTimeout(int fd, std::chrono::milliseconds timeout);

}  // namespace higgins::client_internal
