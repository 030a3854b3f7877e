#pragma once

#include <sys/types.h>

namespace higgins::bench {

/// CPU time, user and system, in seconds: of this process (the clients, with their library
/// threads) and of the server process of the phase.
struct CpuUse {
  double client = 0;
  double server = 0;
};

/// The CpuUse of the two processes since construction, read from /proc/<pid>/stat (a resolution
/// of one clock tick, 10 ms). server_pid 0, or a process that cannot be read: server stays 0.
class CpuMeter {
 public:
  explicit CpuMeter(pid_t server_pid);
  CpuUse Elapsed() const;
  /// How long the threads of each process waited, runnable, for a CPU since construction
  /// (seconds summed over the threads alive at both ends; /proc/<pid>/task/*/schedstat): what
  /// other work on the machine took from them.
  CpuUse Waited() const;

 private:
  CpuUse Now() const;
  CpuUse WaitNow() const;

  pid_t server_pid_;
  CpuUse start_;
  CpuUse start_wait_;
};

}  // namespace higgins::bench
