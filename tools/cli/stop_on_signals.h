#pragma once

// SIGINT and SIGTERM as a request to stop, for commands that end cleanly on Ctrl-C (`subscribe`
// acknowledges what it printed, `produce` reports what was committed).

#include <csignal>

namespace higgins::cli {

/// While it exists, SIGINT and SIGTERM set a flag the command polls (requested()) instead of
/// killing the process, and interrupt blocking system calls (no SA_RESTART), and SIGPIPE is
/// ignored (a closed standard output is then a write error). With `second_signal_kills`, the
/// first signal restores the default action, so a second Ctrl-C ends the process at once. The
/// previous dispositions come back when it is destroyed. One at a time per process.
class StopOnSignals {
 public:
  explicit StopOnSignals(bool second_signal_kills = false);
  ~StopOnSignals();
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

  static bool requested();

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
  struct sigaction previous_pipe_ {};
};

}  // namespace higgins::cli
