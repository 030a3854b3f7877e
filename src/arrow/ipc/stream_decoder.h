#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <span>

#include "higgins/arrow/ipc/options.h"
#include "higgins/arrow/record_batch.h"
#include "higgins/buffer.h"

namespace higgins::arrow::ipc {

/// Sans-I/O incremental decoder of an Arrow IPC stream. Feed it bytes in chunks of any size
/// (from a socket, a file, a fuzzer); it emits the schema, each record batch and the
/// end-of-stream marker as they complete. The same state machine backs ReadStream().
///
/// Protocol: Consume() returns an error once and the decoder then stays failed; bytes after the
/// end-of-stream marker are an error. Not thread-safe.
class StreamDecoder {
 public:
  enum class EventKind { kSchema, kRecordBatch, kEndOfStream };
  struct Event {
    EventKind kind;
    RecordBatch batch;  // kRecordBatch only
  };

  explicit StreamDecoder(ReadOptions options = {});
  ~StreamDecoder();
  StreamDecoder(StreamDecoder&&) noexcept;
  StreamDecoder& operator=(StreamDecoder&&) noexcept;

  /// Consumes bytes (copied as needed to assemble messages that span chunks).
  Status Consume(std::span<const uint8_t> bytes);
  /// Consumes an owned buffer; message bodies wholly inside it are referenced, not copied.
  Status Consume(const Buffer& bytes);

  /// The next decoded event, or nullopt when more bytes are needed.
  std::optional<Event> Poll();

  /// Declares the input complete (the transport closed). OK when the end-of-stream marker was
  /// seen, or when the input stopped at a message boundary after the schema: a missing marker is
  /// allowed by the format, and a kEndOfStream event is then queued. Corruption when a message
  /// was cut off or no schema arrived; the decoder is then failed.
  Status Close();

  /// Null until the schema message has been decoded.
  const SchemaPtr& schema() const;
  bool finished() const;
  /// Bytes buffered waiting for the rest of a message.
  size_t buffered_bytes() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace higgins::arrow::ipc
