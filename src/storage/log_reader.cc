#include "storage/log_reader.h"

#include <algorithm>
#include <cstring>

#include "common/file_util.h"

namespace higgins::storage {

LogReader::LogReader(int fd, std::string path, uint64_t start, uint64_t file_end)
    : fd_(fd),
      path_(std::move(path)),
      position_(start),
      file_end_(std::max(start, file_end)),
      buffer_offset_(start) {}

Status LogReader::Fill(size_t n) {
  const uint64_t buffer_end = buffer_offset_ + buffer_size_;
  if (position_ >= buffer_offset_ && position_ + n <= buffer_end) return Status::OK();
  // Keep the bytes from position_ on, move them to the front, then read up to a full chunk.
  size_t kept = 0;
  if (position_ >= buffer_offset_ && position_ < buffer_end) {
    kept = static_cast<size_t>(buffer_end - position_);
    std::memmove(buffer_.data(), buffer_.data() + (position_ - buffer_offset_), kept);
  }
  const size_t want =
      static_cast<size_t>(std::min<uint64_t>(std::max(n, kReadChunkBytes), file_end_ - position_));
  if (buffer_.size() < want) buffer_.resize(want);
  buffer_offset_ = position_;
  buffer_size_ = kept;
  HIGGINS_RETURN_IF_ERROR(
      ReadFully(fd_, path_, position_ + kept, buffer_.data() + kept, want - kept));
  buffer_size_ = want;
  return Status::OK();
}

Result<std::optional<LogReader::Frame>> LogReader::Next() {
  if (stopped_) return std::optional<Frame>();
  const uint64_t remaining = file_end_ - position_;
  if (remaining == 0) {
    stopped_ = true;
    return std::optional<Frame>();
  }
  DecodedFrame decoded;
  if (remaining < kFrameHeaderSize) {
    decoded.error = FrameError::kTruncated;
  } else {
    HIGGINS_RETURN_IF_ERROR(Fill(kFrameHeaderSize));
    const FrameHeader header = DecodeFrameHeader(buffer_.data() + (position_ - buffer_offset_));
    const uint64_t frame_size = uint64_t{kFrameHeaderSize} + header.length;
    if (header.length > kMaxFramePayload) {
      decoded.error = FrameError::kBadLength;
    } else if (frame_size > remaining) {
      decoded.error = FrameError::kTruncated;
    } else {
      HIGGINS_RETURN_IF_ERROR(Fill(static_cast<size_t>(frame_size)));
      decoded = DecodeFrame(
          {buffer_.data() + (position_ - buffer_offset_), static_cast<size_t>(frame_size)});
    }
  }
  if (decoded.error != FrameError::kNone) {
    error_ = decoded.error;
    stopped_ = true;
    return std::optional<Frame>();
  }
  Frame frame{decoded.type, decoded.payload, position_, static_cast<uint32_t>(decoded.size)};
  position_ += decoded.size;
  return std::optional<Frame>(frame);
}

}  // namespace higgins::storage
