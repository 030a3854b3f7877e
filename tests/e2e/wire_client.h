#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "higgins/arrow/record_batch.h"
#include "higgins.pb.h"
#include "protocol/frame.h"

namespace higgins::test {

/// A blocking protocol client for end-to-end tests: frames out, frames in, nothing clever, so a
/// test states exactly what goes on the wire. Errors fail the current test (gtest ADD_FAILURE)
/// and return empty values.
class WireClient {
 public:
  explicit WireClient(uint16_t port);
  ~WireClient();

  bool connected() const { return fd_ >= 0; }
  /// Sends `message` with the next correlation id (unless it has one) and returns the id.
  uint64_t Send(higgins::wire::Message message);
  /// Sends raw bytes (for malformed-input tests).
  void SendRaw(std::string_view bytes);
  /// Sends what it can of `bytes` until the broker stops taking them for `stall_ms` (its
  /// receive and our send buffers full) or all are sent; returns how many were sent.
  size_t SendUntilStalled(std::string_view bytes, int stall_ms);
  /// Half-closes: the broker sees end of input.
  void ShutdownWrite();
  /// The next reply (waits up to 30 s), or nullopt on close/timeout.
  std::optional<higgins::wire::Message> Receive();
  /// Send + Receive, checking the correlation id.
  higgins::wire::Message Call(higgins::wire::Message message);
  /// True when the broker closed the connection (reads EOF within 5 s).
  bool ClosedByPeer();

  // Request builders and common calls.
  higgins::wire::Message CreateConfiguration(std::string_view toml);
  higgins::wire::Message Produce(std::string_view stream, std::string_view payload,
                           higgins::wire::PayloadFormat format = higgins::wire::AUTO);
  higgins::wire::Message Query(higgins::wire::Index index);
  higgins::wire::Message QueryOffset(std::string_view stream, std::string_view key, uint64_t offset);
  higgins::wire::Message QueryLatest(std::string_view stream, std::string_view key);
  bool Ping();

 private:
  int fd_ = -1;
  uint64_t next_id_ = 1;
  protocol::FrameDecoder decoder_;
};

/// Decodes a Record's data (an Arrow IPC stream) into one batch (batches concatenated by
/// appending rows). Fails the test on error.
arrow::RecordBatch DecodeRecord(const higgins::wire::Record& record);

/// Concatenated errors of any reply body, "" when there are none.
std::string ReplyErrors(const higgins::wire::Message& reply);

}  // namespace higgins::test
