#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "higgins/result.h"

namespace higgins::bench {

/// A connected, blocking TCP socket with TCP_NODELAY. Owns the descriptor (closed by the
/// destructor); movable, not copyable. One thread at a time.
class Socket {
 public:
  /// Resolves `host` (a name or an address) and connects. `read_timeout` bounds each Read
  /// (0: no bound). Errors: IOError naming host, port and the reason.
  static Result<Socket> Connect(const std::string& host, uint16_t port,
                                std::chrono::milliseconds read_timeout);

  /// Writes every byte. Errors: IOError (peer gone, reset).
  Status WriteAll(std::string_view bytes);
  /// Reads what is available, up to `max` bytes, into `out`; blocks while nothing is. Returns
  /// the count, 0 when the peer closed. Errors: IOError, including the read timeout.
  Result<size_t> Read(char* out, size_t max);

  Socket(Socket&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  Socket& operator=(Socket&& other) noexcept;
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  ~Socket();

 private:
  explicit Socket(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace higgins::bench
