#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "common/result.h"

namespace higgins::protocol {

/// Frames on a Higgins connection (docs/protocol.md): a 4-byte big-endian unsigned length, then
/// that many bytes of one protobuf `higgins.Message`.
inline constexpr size_t kFrameHeaderBytes = 4;
/// Default limit on one frame's body; brokers and clients may configure another.
inline constexpr uint32_t kDefaultMaxFrameBytes = 64u << 20;

/// Appends the 4-byte big-endian length of `body` and then `body` to `out`.
/// Errors: ResourceExhausted when body.size() > max_frame_bytes.
Status AppendFrame(std::string_view body, uint32_t max_frame_bytes, std::string* out);

/// Sans-I/O splitter of a byte stream into frame bodies. Feed it whatever the socket returned;
/// take complete bodies with Next(). Not thread-safe.
///
/// Errors are sticky: after a length prefix above the limit every call returns that error
/// (ResourceExhausted "frame of N bytes exceeds the limit of M bytes"): the stream cannot be
/// resynchronised, so the connection must be answered and closed.
class FrameDecoder {
 public:
  explicit FrameDecoder(uint32_t max_frame_bytes = kDefaultMaxFrameBytes);

  /// Buffers `bytes`. Errors: the sticky frame-size error (checked as soon as a header is
  /// complete, before the body is buffered).
  Status Consume(std::span<const uint8_t> bytes);

  /// The next complete frame body, or nullopt when more bytes are needed.
  std::optional<std::string> Next();

  /// Called when the peer closed its sending side. OK at a frame boundary; otherwise
  /// Corruption "truncated frame: expected N body bytes, got M" (or "... header bytes").
  Status Finish() const;

  /// Bytes buffered and not yet returned by Next().
  size_t buffered_bytes() const;

 private:
  Status Parse();

  uint32_t max_frame_bytes_;
  std::string buffer_;   // unconsumed bytes starting at read_pos_
  size_t read_pos_ = 0;
  std::deque<std::string> ready_;
  Status error_;
};

}  // namespace higgins::protocol
