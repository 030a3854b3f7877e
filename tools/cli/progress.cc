#include "progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace higgins::cli {

std::string FormatRate(uint64_t records, double seconds) {
  const double rate = seconds > 0 ? static_cast<double>(records) / seconds : 0;
  char text[48];
  std::snprintf(text, sizeof(text), "%.0f records/s", rate);
  return text;
}

std::string FormatProgress(const ProgressState& state) {
  std::string line;
  if (state.total_bytes && *state.total_bytes > 0) {
    constexpr int kBarWidth = 20;
    const double fraction = std::min(
        1.0, static_cast<double>(state.bytes_read) / static_cast<double>(*state.total_bytes));
    const int filled = static_cast<int>(fraction * kBarWidth);
    char percent[16];
    std::snprintf(percent, sizeof(percent), "%3d%%", static_cast<int>(fraction * 100));
    line = "[" + std::string(static_cast<size_t>(filled), '#') +
           std::string(static_cast<size_t>(kBarWidth - filled), '.') + "] " + percent + "  ";
  }
  line += std::to_string(state.records) + " records  " +
          FormatRate(state.records, state.elapsed_seconds);
  return line;
}

ProgressLine::ProgressLine(std::optional<uint64_t> total_bytes)
    : enabled_(::isatty(STDERR_FILENO) == 1),
      total_bytes_(total_bytes),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

ProgressLine::~ProgressLine() {
  Clear();
}

double ProgressLine::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressLine::Update(uint64_t bytes_read, uint64_t records) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  ProgressState state{bytes_read, total_bytes_, records, elapsed_seconds()};
  std::fprintf(stderr, "\r\033[K%s", FormatProgress(state).c_str());
  std::fflush(stderr);
  shown_ = true;
}

void ProgressLine::Clear() {
  if (!shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace higgins::cli
