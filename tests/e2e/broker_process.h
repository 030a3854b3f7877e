#pragma once

#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace higgins::test {

/// A real `higgins` broker process for end-to-end tests: started on a free loopback port with
/// its own --dir, stopped with SIGTERM (graceful) or SIGKILL (crash). Its log goes to
/// <dir>.log. Not thread-safe.
class BrokerProcess {
 public:
  /// `dir` is the broker's --dir (kept across restarts); `extra_args` are appended.
  explicit BrokerProcess(std::string dir, std::vector<std::string> extra_args = {});
  ~BrokerProcess();  // SIGKILL if still running

  /// Variables set (replacing inherited ones) in the broker's environment from the next start
  /// on, e.g. to preload a fault-injecting library; empty restores the test's environment.
  void SetEnvironment(std::vector<std::pair<std::string, std::string>> env) {
    env_ = std::move(env);
  }

  /// Starts the broker and waits (up to 20 s) until it logs the port it listens on. Aborts the
  /// test (FAIL) otherwise.
  void Start();
  /// Like Start, but a broker that exits during start-up is not a test failure: returns false
  /// and exit_status() tells how it ended (Log() tells why).
  bool StartOrExit();
  int exit_status() const { return exit_status_; }
  /// SIGTERM, then waits for exit; returns the exit status (or -signal).
  int Terminate();
  /// SIGKILL, then waits.
  void Kill9();
  bool running() const { return pid_ > 0; }
  /// The broker's process id while it runs (to watch its memory).
  pid_t pid() const { return pid_; }
  uint16_t port() const { return port_; }
  const std::string& dir() const { return dir_; }
  /// The broker's log so far.
  std::string Log() const;

 private:
  int Wait();
  void StartImpl(bool exit_is_failure);

  std::string dir_;
  std::vector<std::string> extra_args_;
  std::vector<std::pair<std::string, std::string>> env_;
  pid_t pid_ = -1;
  uint16_t port_ = 0;
  int exit_status_ = 0;
};

/// The bytes of an SDK example module built by the normal build (sdk/examples/<name>.c, as
/// <build>/sdk/examples/<name>.wasm): "double", "sum" or "computed". ADD_FAILURE when missing.
std::string ReadExampleModule(const std::string& name);

/// A fresh empty folder under /tmp, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace higgins::test
