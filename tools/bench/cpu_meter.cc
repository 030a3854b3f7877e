#include "cpu_meter.h"

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace higgins::bench {

CpuMeter::CpuMeter(pid_t server_pid)
    : server_pid_(server_pid), start_(Now()), start_wait_(WaitNow()) {}

CpuUse CpuMeter::Waited() const {
  const CpuUse now = WaitNow();
  return {now.client - start_wait_.client, now.server - start_wait_.server};
}

CpuUse CpuMeter::WaitNow() const {
  const auto seconds = [](const std::string& process) {
    // Each thread's schedstat: time on a CPU, time waiting on a run queue (ns), time slices.
    std::error_code ec;
    uint64_t waited_ns = 0;
    for (const auto& task : std::filesystem::directory_iterator(process + "/task", ec)) {
      std::ifstream in(task.path() / "schedstat");
      uint64_t ran = 0, waited = 0;
      if (in >> ran >> waited) waited_ns += waited;
    }
    return static_cast<double>(waited_ns) / 1e9;
  };
  return {seconds("/proc/self"),
          server_pid_ > 0 ? seconds("/proc/" + std::to_string(server_pid_)) : 0.0};
}

CpuUse CpuMeter::Elapsed() const {
  const CpuUse now = Now();
  return {now.client - start_.client, now.server - start_.server};
}

CpuUse CpuMeter::Now() const {
  const auto seconds = [](const std::string& path) {
    // Fields 14 and 15 (utime, stime) in clock ticks; the name (field 2) may hold spaces and
    // parentheses, so counting starts after its closing one, at field 3.
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line)) return 0.0;
    const auto close = line.rfind(')');
    if (close == std::string::npos) return 0.0;
    std::istringstream fields(line.substr(close + 1));
    std::string field;
    unsigned long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && fields >> field; ++i) {
      if (i == 14) utime = std::stoull(field);
      if (i == 15) stime = std::stoull(field);
    }
    return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
  };
  return {seconds("/proc/self/stat"),
          server_pid_ > 0 ? seconds("/proc/" + std::to_string(server_pid_) + "/stat") : 0.0};
}

}  // namespace higgins::bench
