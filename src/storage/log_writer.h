#pragma once

#include <sys/uio.h>

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>

#include "higgins/result.h"
#include "storage/log_frame.h"

namespace higgins::storage {

/// Appends frames at the end of one file (a segment or an index file). Each Append is a single
/// pwritev(2) at the end the writer keeps: a failed or short write is cut back with ftruncate so
/// the file ends on a frame boundary again, and the writer stays usable. If even the cut fails,
/// the writer is broken and every later Append returns that error (the caller reopens the file,
/// whose recovery cuts the damaged tail).
///
/// Does not own the descriptor, which must stay open while the writer is used. Not
/// thread-safe; concurrent preads of bytes before end() are safe.
class LogWriter {
 public:
  /// Appends at `end`, the file's current size (where the last whole frame ends).
  LogWriter(int fd, std::string path, uint64_t end) : fd_(fd), path_(std::move(path)), end_(end) {}

  /// Writes the concatenation of `pieces` (at most 8, raw bytes: frames and headers the caller
  /// encoded). Errors: IOError, with nothing appended.
  Status Append(std::initializer_list<ByteSpan> pieces);

  /// Writes one frame of `type` whose payload is the concatenation of `payload` (at most 7
  /// pieces). Errors as Append.
  Status AppendFrame(FrameType type, std::initializer_list<ByteSpan> payload);

  /// fdatasync(2). After a failure the data may be lost whatever a retry says, so the caller
  /// must treat the file as failed.
  Status Sync();

  /// Where the next frame goes: the file size as far as this writer knows.
  uint64_t end() const { return end_; }
  const std::string& path() const { return path_; }

 private:
  /// One pwritev of `pieces`, `total` bytes in all, at end_.
  Status Write(std::span<const iovec> pieces, size_t total);

  int fd_;
  std::string path_;
  uint64_t end_;
  Status broken_;
};

}  // namespace higgins::storage
