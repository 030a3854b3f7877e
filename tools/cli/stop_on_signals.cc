#include "stop_on_signals.h"

namespace higgins::cli {
namespace {

volatile std::sig_atomic_t g_stop = 0;

extern "C" void RequestStop(int) {
  g_stop = 1;
}

}  // namespace

StopOnSignals::StopOnSignals(bool second_signal_kills) {
  g_stop = 0;
  struct sigaction action {};
  action.sa_handler = RequestStop;
  action.sa_flags = second_signal_kills ? SA_RESETHAND : 0;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, &previous_int_);
  ::sigaction(SIGTERM, &action, &previous_term_);
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGPIPE, &ignore, &previous_pipe_);
}

StopOnSignals::~StopOnSignals() {
  ::sigaction(SIGINT, &previous_int_, nullptr);
  ::sigaction(SIGTERM, &previous_term_, nullptr);
  ::sigaction(SIGPIPE, &previous_pipe_, nullptr);
}

bool StopOnSignals::requested() {
  return g_stop != 0;
}

}  // namespace higgins::cli
