#pragma once

#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "higgins/arrow/ipc/options.h"
#include "higgins/arrow/record_batch.h"
#include "higgins/buffer.h"

namespace higgins::arrow::ipc {

class RecordBatchSerializer;
struct MessageExtent;
struct FileBlock;

/// A schema's IPC schema message, encoded once for the many small streams written with it (a
/// query reply or a subscription push per record): StreamWriter copies these bytes instead of
/// encoding the schema again. Immutable, so it may be shared between threads.
class EncodedSchema {
 public:
  /// Encodes `schema`'s message under `options.limits`; the errors of StreamWriter's
  /// constructor.
  static Result<EncodedSchema> Make(SchemaPtr schema, const WriteOptions& options = {});

  const SchemaPtr& schema() const { return schema_; }
  /// The encapsulated schema message (continuation marker, length, flatbuffer, padding).
  std::span<const uint8_t> message() const { return {message_.data(), message_.size()}; }

 private:
  EncodedSchema(SchemaPtr schema, Buffer message)
      : schema_(std::move(schema)), message_(std::move(message)) {}
  SchemaPtr schema_;
  Buffer message_;
};

/// Writes an Arrow IPC stream into memory: schema message, one message per batch, end-of-stream
/// marker. Every message is 8-byte aligned and padded; sliced arrays are rebased; metadata
/// version V5. Sans-I/O: the caller takes the bytes and does the I/O. Not thread-safe.
///
/// The writer produces nothing that a reader with options.limits (by default the readers'
/// defaults) would refuse: it returns an error instead (see WriteOptions::limits).
class StreamWriter {
 public:
  /// Writes the schema message. If the schema cannot be written (ResourceExhausted for more
  /// than max_fields fields or metadata above max_metadata_bytes, InvalidArgument for strings
  /// that are not UTF-8), nothing is written and every call returns that error (see status()).
  StreamWriter(SchemaPtr schema, WriteOptions options = {});
  /// Starts the stream with `schema`'s encoded message; `options` should be those it was
  /// encoded with (its limits were checked then). Never fails.
  explicit StreamWriter(const EncodedSchema& schema, WriteOptions options = {});

  /// OK, or the error that keeps the schema from being written.
  const Status& status() const { return schema_status_; }

  /// Appends one batch. Its fields must match the writer's schema in name, type and
  /// nullability (InvalidArgument otherwise); metadata is always the writer's. A batch whose
  /// buffers are too small for its slots is InvalidArgument, one over a limit (rows, metadata,
  /// body) ResourceExhausted; nothing is written then and the writer stays usable.
  Status WriteBatch(const RecordBatch& batch);
  /// Appends the end-of-stream marker and returns all bytes written (those not already handed
  /// out by TakeBytes); the writer is then done and further calls return InvalidArgument.
  Result<Buffer> Finish();

  /// Hands out the bytes produced since construction or the previous TakeBytes, without
  /// copying, so a caller can stream a large output while writing. Concatenating every
  /// TakeBytes result and the Finish result gives the whole stream.
  Buffer TakeBytes();

  /// Bytes produced so far (schema message included), whether taken or not.
  size_t size() const { return taken_ + out_.size(); }

  StreamWriter(StreamWriter&&) noexcept;
  StreamWriter& operator=(StreamWriter&&) noexcept;
  ~StreamWriter();

 private:
  friend class FileWriter;

  /// Writes `prefix` (the file format's leading magic) before the schema message; nothing at
  /// all when the schema cannot be written.
  StreamWriter(SchemaPtr schema, WriteOptions options, std::span<const uint8_t> prefix);
  /// WriteBatch, reporting the sizes of the message appended.
  Result<MessageExtent> AppendBatch(const RecordBatch& batch);
  Status CheckWritable() const;

  SchemaPtr schema_;
  WriteOptions options_;
  Status schema_status_;
  BufferBuilder out_;
  size_t taken_ = 0;
  std::unique_ptr<RecordBatchSerializer> serializer_;
  bool finished_ = false;
};

/// Writes an Arrow IPC file: "ARROW1\0\0", the stream (schema, batches, EOS), a Footer with one
/// Block per batch, footer length, "ARROW1". Not thread-safe.
class FileWriter {
 public:
  /// As StreamWriter's constructor (the leading magic is not written either on error).
  FileWriter(SchemaPtr schema, WriteOptions options = {});
  /// As StreamWriter::status().
  const Status& status() const { return stream_.status(); }
  /// As StreamWriter::WriteBatch; also records the batch's footer Block.
  Status WriteBatch(const RecordBatch& batch);
  /// Appends the end-of-stream marker, the footer and the trailing magic; returns the bytes not
  /// yet taken. The writer is then done. ResourceExhausted, with nothing appended, when the
  /// footer (24 bytes per batch plus the schema) exceeds limits.max_metadata_bytes: with the
  /// default 16 MiB, from about 700 000 batches on.
  Result<Buffer> Finish();
  /// As StreamWriter::TakeBytes (the footer's offsets stay absolute file positions).
  Buffer TakeBytes() { return stream_.TakeBytes(); }
  size_t size() const { return stream_.size(); }

  FileWriter(FileWriter&&) noexcept;
  FileWriter& operator=(FileWriter&&) noexcept;
  ~FileWriter();

 private:
  StreamWriter stream_;  // writes the magic, the schema, the batches and their encapsulation
  std::vector<FileBlock> blocks_;
};

/// One-call forms.
Result<Buffer> WriteStream(const SchemaPtr& schema, const std::vector<RecordBatch>& batches,
                           const WriteOptions& options = {});
Result<Buffer> WriteFile(const SchemaPtr& schema, const std::vector<RecordBatch>& batches,
                         const WriteOptions& options = {});

}  // namespace higgins::arrow::ipc
