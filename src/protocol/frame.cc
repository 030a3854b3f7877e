#include "protocol/frame.h"

#include <utility>

#include "higgins/bit_util.h"

namespace higgins::protocol {
namespace {

// An empty buffer keeps its allocation up to this size; a larger one (left by a large frame) is
// released as soon as it is empty, so that an idle connection does not hold the memory of its
// biggest frame (docs/operations.md, "Connection memory").
constexpr size_t kRetainedBufferBytes = 4096;

std::string_view AsChars(std::span<const uint8_t> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace

Status AppendFrame(std::string_view body, uint32_t max_frame_bytes, std::string* out) {
  if (body.size() > max_frame_bytes) {
    return Status::ResourceExhausted("frame of " + std::to_string(body.size()) +
                                     " bytes exceeds the limit of " +
                                     std::to_string(max_frame_bytes) + " bytes");
  }
  char header[kFrameHeaderBytes];
  bit_util::StoreBE32(header, static_cast<uint32_t>(body.size()));
  out->reserve(out->size() + kFrameHeaderBytes + body.size());
  out->append(header, kFrameHeaderBytes);
  out->append(body);
  return Status::OK();
}

FrameDecoder::FrameDecoder(uint32_t max_frame_bytes) : max_frame_bytes_(max_frame_bytes) {}

Status FrameDecoder::Consume(std::span<const uint8_t> bytes) {
  if (!error_.ok()) return error_;
  const std::string_view input = AsChars(bytes);
  if (read_pos_ == buffer_.size()) {
    // Nothing pending: take frames straight from the input and buffer only its incomplete tail.
    if (buffer_.capacity() > kRetainedBufferBytes) {
      std::string().swap(buffer_);
    } else {
      buffer_.clear();
    }
    read_pos_ = 0;
    const size_t used = Parse(input);
    if (error_.ok()) buffer_.append(input.substr(used));
  } else {
    Compact();
    buffer_.append(input);
    read_pos_ += Parse(std::string_view(buffer_).substr(read_pos_));
  }
  if (!error_.ok() || (read_pos_ == buffer_.size() && buffer_.capacity() > kRetainedBufferBytes)) {
    std::string().swap(buffer_);
    read_pos_ = 0;
  }
  return error_;
}

size_t FrameDecoder::Parse(std::string_view bytes) {
  size_t pos = 0;
  while (bytes.size() - pos >= kFrameHeaderBytes) {
    const uint32_t length = bit_util::LoadBE32(bytes.data() + pos);
    if (length > max_frame_bytes_) {
      error_ = Status::ResourceExhausted("frame of " + std::to_string(length) +
                                         " bytes exceeds the limit of " +
                                         std::to_string(max_frame_bytes_) + " bytes");
      break;
    }
    if (bytes.size() - pos - kFrameHeaderBytes < length) break;
    ready_.emplace_back(bytes.substr(pos + kFrameHeaderBytes, length));
    ready_bytes_ += kFrameHeaderBytes + length;
    pos += kFrameHeaderBytes + length;
  }
  return pos;
}

void FrameDecoder::Compact() {
  const size_t pending = buffer_.size() - read_pos_;
  if (read_pos_ > 0 && read_pos_ >= pending) {
    buffer_.erase(0, read_pos_);
    read_pos_ = 0;
  }
}

std::optional<std::string> FrameDecoder::Next() {
  if (ready_.empty()) return std::nullopt;
  std::string body = std::move(ready_.front());
  ready_.pop_front();
  ready_bytes_ -= kFrameHeaderBytes + body.size();
  return body;
}

Status FrameDecoder::Finish() const {
  if (!error_.ok()) return error_;
  const size_t pending = buffer_.size() - read_pos_;
  if (pending == 0) return Status::OK();
  if (pending < kFrameHeaderBytes) {
    return Status::Corruption("truncated frame: expected " + std::to_string(kFrameHeaderBytes) +
                              " header bytes, got " + std::to_string(pending));
  }
  const uint32_t length = bit_util::LoadBE32(buffer_.data() + read_pos_);
  return Status::Corruption("truncated frame: expected " + std::to_string(length) +
                            " body bytes, got " + std::to_string(pending - kFrameHeaderBytes));
}

size_t FrameDecoder::buffered_bytes() const {
  return ready_bytes_ + (buffer_.size() - read_pos_);
}

}  // namespace higgins::protocol
