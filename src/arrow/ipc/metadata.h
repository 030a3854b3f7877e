#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "higgins/arrow/ipc/options.h"
#include "higgins/arrow/schema.h"
#include "higgins/result.h"

/// Encoding and decoding of the Arrow IPC FlatBuffers metadata (Message, Schema, RecordBatch,
/// Footer; see format.fbs). The generated FlatBuffers types stay inside the .cc files: callers
/// only see the plain structs below. Sans-I/O and stateless; safe to call from any thread.
namespace higgins::arrow::ipc {

/// MetadataVersion values. Higgins writes V5 and reads V4 and V5 (they differ only for unions).
inline constexpr int16_t kMetadataV4 = 3;
inline constexpr int16_t kMetadataV5 = 4;

/// Per-field length and null count of a record batch, in schema order.
struct FieldNode {
  int64_t length = 0;
  int64_t null_count = 0;
  friend bool operator==(const FieldNode&, const FieldNode&) = default;
};

/// A byte range relative to the start of a message body.
struct BufferRegion {
  int64_t offset = 0;
  int64_t length = 0;
  friend bool operator==(const BufferRegion&, const BufferRegion&) = default;
};

/// The metadata of a RecordBatch message, as stored (values are untrusted after decoding: the
/// batch loader checks them against the schema and the body).
struct RecordBatchHeader {
  int64_t length = 0;
  std::vector<FieldNode> nodes;
  std::vector<BufferRegion> buffers;
  Compression compression = Compression::kNone;
};

enum class MessageKind { kSchema, kRecordBatch, kDictionaryBatch };

/// A dictionary-encoded field (Schema.fbs DictionaryEncoding): its record batch columns hold
/// indices of `index_type` (an integer type) into the dictionary `id`, which DictionaryBatch
/// messages define, replace and extend. The field itself keeps its plain value type.
struct DictionaryField {
  size_t field_index = 0;
  int64_t id = 0;
  DataType index_type;
  friend bool operator==(const DictionaryField&, const DictionaryField&) = default;
};

/// A decoded Message flatbuffer. kSchema sets `schema` (every field with its plain value type)
/// and `dictionary_fields` (in field order); kRecordBatch sets `batch`; kDictionaryBatch sets
/// `dictionary_id`, `is_delta` and `batch` (the dictionary's values, a one-column batch).
struct MessageMetadata {
  MessageKind kind = MessageKind::kSchema;
  int16_t version = kMetadataV5;
  int64_t body_length = 0;
  SchemaPtr schema;
  std::vector<DictionaryField> dictionary_fields;
  RecordBatchHeader batch;
  int64_t dictionary_id = 0;
  bool is_delta = false;
};

/// One Block of the file footer: where a message starts (its continuation marker), the length
/// of prefix + flatbuffer + padding, and the body length.
struct FileBlock {
  int64_t offset = 0;
  int32_t metadata_length = 0;
  int64_t body_length = 0;
  friend bool operator==(const FileBlock&, const FileBlock&) = default;
};

struct FooterMetadata {
  int16_t version = kMetadataV5;
  SchemaPtr schema;
  std::vector<DictionaryField> dictionary_fields;
  std::vector<FileBlock> dictionaries;
  std::vector<FileBlock> record_batches;
};

/// Message flatbuffer (unframed, unpadded) holding `schema`, metadata version V5, bodyLength 0.
/// The fields listed in `dictionary_fields` are written dictionary-encoded (Higgins' writers
/// never encode; tests and benchmarks use this to write what other implementations write).
std::vector<uint8_t> EncodeSchemaMessage(const Schema& schema,
                                         std::span<const DictionaryField> dictionary_fields = {});

/// Message flatbuffer holding a RecordBatch header with `body_length`.
std::vector<uint8_t> EncodeRecordBatchMessage(const RecordBatchHeader& header, int64_t body_length);

/// Message flatbuffer holding a DictionaryBatch of `id` whose data is `header`.
std::vector<uint8_t> EncodeDictionaryBatchMessage(int64_t id, bool is_delta,
                                                  const RecordBatchHeader& header,
                                                  int64_t body_length);

/// Footer flatbuffer (the bytes between the stream and the footer length).
std::vector<uint8_t> EncodeFooter(const Schema& schema, std::span<const FileBlock> record_batches,
                                  std::span<const FileBlock> dictionaries = {},
                                  std::span<const DictionaryField> dictionary_fields = {});

/// Verifies and decodes a Message flatbuffer. `bytes` must start at an 8-byte aligned address
/// (FlatBuffers reads scalars in place); trailing padding is fine.
/// Errors: Corruption (verifier failure, missing header, negative bodyLength, bad enum values),
/// NotSupported (metadata version older than V4 or newer than V5, big-endian schema, an
/// unsupported type naming the field, tensors, unknown compression codec), ResourceExhausted
/// (bodyLength above limits.max_body_bytes, more than limits.max_fields fields, a RecordBatch
/// length above limits.max_batch_rows, also for a DictionaryBatch's data). Strings (field names,
/// custom metadata, time zones) must be valid UTF-8: Corruption naming the string otherwise.
Result<MessageMetadata> DecodeMessage(std::span<const uint8_t> bytes, const IpcLimits& limits);

/// Verifies and decodes a Footer flatbuffer (same alignment requirement and error kinds as
/// DecodeMessage). A missing schema is Corruption.
Result<FooterMetadata> DecodeFooter(std::span<const uint8_t> bytes, const IpcLimits& limits);

}  // namespace higgins::arrow::ipc
