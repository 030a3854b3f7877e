#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "higgins/result.h"
#include "storage/log_frame.h"

namespace higgins::storage {

/// Reads the frames of one file in order, from a start offset to the file's end, in chunks of
/// kReadChunkBytes (a larger frame is read whole). Reading stops at the end of the file or at
/// the first damaged frame (DecodeFrame's FrameError); valid_end() is then where the valid
/// frames end, which is where recovery cuts a torn tail.
///
/// Does not own the descriptor. Not thread-safe.
class LogReader {
 public:
  /// Reads [start, file_end) of the file behind `fd`.
  LogReader(int fd, std::string path, uint64_t start, uint64_t file_end);

  struct Frame {
    uint8_t type = 0;
    ByteSpan payload;       // valid until the next call to Next()
    uint64_t position = 0;  // file offset of the frame's header
    uint32_t size = 0;      // header + payload
  };

  /// The next valid frame, or nullopt when reading stopped (see error()). Errors: IOError.
  Result<std::optional<Frame>> Next();

  /// Why reading stopped: kNone at a clean end of file, else the damage found at valid_end().
  FrameError error() const { return error_; }
  /// The end of the last frame returned (the start offset before any).
  uint64_t valid_end() const { return position_; }

 private:
  /// Makes [position_, position_ + n) available in buffer_; the caller checked it is in the file.
  Status Fill(size_t n);

  int fd_;
  std::string path_;
  uint64_t position_;
  uint64_t file_end_;
  FrameError error_ = FrameError::kNone;
  bool stopped_ = false;
  std::vector<uint8_t> buffer_;
  uint64_t buffer_offset_ = 0;  // file offset of buffer_[0]
  size_t buffer_size_ = 0;      // valid bytes in buffer_
};

}  // namespace higgins::storage
