#pragma once

#include <cstdint>
#include <vector>

#include "arrow/ipc/message_writer.h"
#include "arrow/ipc/metadata.h"
#include "higgins/arrow/record_batch.h"
#include "higgins/buffer.h"

namespace higgins::arrow::ipc::testing {

/// Writes Arrow IPC streams and files with dictionary-encoded fields, as pyarrow and
/// apache-arrow JS do, for tests and benchmarks: Higgins' own writers never dictionary-encode.
/// The caller decides every message, so it can also write what a correct writer would not (a
/// delta before its base, an unknown id, indices out of range). Aborts on misuse; not
/// thread-safe.
class DictionaryIpcWriter {
 public:
  enum class Format { kStream, kFile };

  /// `schema` has the plain value types; `fields` are the dictionary-encoded ones.
  DictionaryIpcWriter(SchemaPtr schema, std::vector<DictionaryField> fields,
                      Format format = Format::kStream);

  /// A DictionaryBatch message of `id` holding `values` (any type: a mismatch with the field's
  /// value type is the caller's choice).
  void WriteDictionary(int64_t id, const Array& values, bool is_delta = false);
  /// A RecordBatch message: `columns` in schema order, the dictionary-encoded ones as indices.
  void WriteBatch(const std::vector<Array>& columns);
  /// End-of-stream marker; for files the footer (listing every message written) and magic.
  Buffer Finish();

 private:
  // Serialises `columns` as a RecordBatch message into a fresh buffer.
  Buffer SerializeBatch(const std::vector<Array>& columns, const std::vector<Field>& fields);

  SchemaPtr schema_;
  std::vector<DictionaryField> fields_;
  Format format_;
  BufferBuilder out_;
  RecordBatchSerializer serializer_{WriteOptions{}};
  std::vector<FileBlock> dictionary_blocks_;
  std::vector<FileBlock> batch_blocks_;
};

}  // namespace higgins::arrow::ipc::testing
