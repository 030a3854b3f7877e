#pragma once

// Servers that a benchmark starts for itself: the `higgins` broker and, for comparisons,
// `nats-server`. Each runs as a child process on a free port with a temporary folder of its own
// (its data and its log), removed when it stops.

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "higgins/result.h"

namespace higgins::bench {

/// A child process with a temporary folder. Not thread-safe; Stop() runs on destruction.
class ServerProcess {
 public:
  ServerProcess() = default;
  ~ServerProcess() { Stop(); }
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  /// Makes the folder `$TMPDIR/<prefix>.XXXXXX` (TMPDIR defaults to /tmp) and picks a port that
  /// nothing listens on right now (another process may take it before the server binds: then
  /// the server's start fails, and so does the run).
  [[nodiscard]] Status Prepare(std::string_view prefix);
  /// Starts argv[0] with `argv`, stdin from /dev/null and stdout and stderr to root()/server.log.
  [[nodiscard]] Status Spawn(const std::vector<std::string>& argv);
  /// True once the process has exited (it is then reaped).
  bool Exited();
  /// SIGTERM, then SIGKILL after 20 s; then removes the folder. Idempotent.
  void Stop();

  const std::string& root() const { return root_; }
  uint16_t port() const { return port_; }
  pid_t pid() const { return pid_; }
  /// The end of the log (its last 4000 bytes).
  std::string Log() const;

 private:
  std::string root_;
  uint16_t port_ = 0;
  pid_t pid_ = -1;
};

/// Starts `binary` (a `higgins` broker) with --port, --dir <root>/data, --log-level warn and
/// `extra`, and waits until it answers a ping (30 s at most).
[[nodiscard]] Status StartBroker(ServerProcess* server, const std::string& binary,
                                 const std::vector<std::string>& extra);

/// The broker next to this program (installed: bin/higgins) or in the build tree
/// (<build>/tools/bench/higgins-bench -> <build>/src/server/higgins); else "higgins".
std::string DefaultBrokerPath();

/// A TCP port of 127.0.0.1 that nothing listens on right now (the kernel's choice; another
/// process may take it before it is used).
[[nodiscard]] Result<uint16_t> FreeTcpPort();

/// Waits until something accepts TCP connections on 127.0.0.1:port, `timeout` at most (0: tries
/// once).
bool WaitForPort(uint16_t port, std::chrono::milliseconds timeout);

}  // namespace higgins::bench
