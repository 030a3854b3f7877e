#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace higgins::cli {

/// What a progress line shows.
struct ProgressState {
  uint64_t bytes_read = 0;
  /// The input's size when known (a regular file).
  std::optional<uint64_t> total_bytes;
  uint64_t records = 0;
  double elapsed_seconds = 0;
};

/// One progress line, without a line end: `[#########...........]  45%  120000 records  60000
/// records/s` (a 20-character bar and percentage only when the size is known).
std::string FormatProgress(const ProgressState& state);

/// `N records/s` with no decimals, or `0 records/s` before any time has passed.
std::string FormatRate(uint64_t records, double seconds);

/// A progress line on standard error, redrawn in place (carriage return) at most every 100 ms.
/// Disabled (every call does nothing) unless standard error is a terminal. Not thread-safe.
class ProgressLine {
 public:
  explicit ProgressLine(std::optional<uint64_t> total_bytes);
  ~ProgressLine();

  /// Redraws the line if 100 ms have passed since the last redraw.
  void Update(uint64_t bytes_read, uint64_t records);
  /// Erases the line (before the final message or an error).
  void Clear();
  /// Seconds since construction.
  double elapsed_seconds() const;

 private:
  bool enabled_;
  bool shown_ = false;
  std::optional<uint64_t> total_bytes_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace higgins::cli
