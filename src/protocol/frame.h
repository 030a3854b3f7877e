#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "higgins/result.h"

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

  /// The next complete frame body, or nullopt when more bytes are needed. Frames completed before
  /// a frame-size error are still returned, in order, so that they can be answered first.
  std::optional<std::string> Next();

  /// Called when the peer closed its sending side. OK at a frame boundary; otherwise
  /// Corruption "truncated frame: expected N body bytes, got M" (or "... header bytes").
  Status Finish() const;

  /// Bytes consumed and not yet returned by Next(): complete frames waiting in the queue (their
  /// headers included) plus the partial frame after them. 0 exactly at a frame boundary with an
  /// empty queue. What a connection holds in memory for its peer, for back-pressure.
  size_t buffered_bytes() const;

 private:
  // Moves every complete frame at the start of `bytes` to ready_; returns the bytes used. Sets
  // error_ (and stops) at a length prefix above the limit.
  size_t Parse(std::string_view bytes);
  // Drops the consumed prefix of buffer_ when it is at least as long as what remains, so each
  // byte is moved O(1) times on average.
  void Compact();

  uint32_t max_frame_bytes_;
  std::string buffer_;  // buffer_[read_pos_..] holds the start of the next, incomplete frame
  size_t read_pos_ = 0;
  std::deque<std::string> ready_;
  size_t ready_bytes_ = 0;  // headers and bodies of the frames in ready_
  Status error_;
};

}  // namespace higgins::protocol
