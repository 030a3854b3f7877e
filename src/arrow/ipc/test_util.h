#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "arrow/ipc/metadata.h"
#include "higgins/arrow/record_batch.h"
#include "higgins/buffer.h"

/// Helpers shared by the IPC tests: building arrays and batches of every supported type, and
/// assembling hand-made (possibly corrupt) streams from metadata and bodies.
namespace higgins::arrow::ipc::testing {

/// Array of `type` from optional values; nullopt is a null slot. T must match Array::Value<T>.
template <typename T>
Array MakePrimitive(const DataType& type, const std::vector<std::optional<T>>& values) {
  ArrayBuilder builder(type);
  for (const auto& v : values) {
    if (v) {
      builder.AppendPrimitive<T>(*v);
    } else {
      builder.AppendNull();
    }
  }
  return builder.Finish();
}

Array MakeBool(const std::vector<std::optional<bool>>& values);
/// utf8, large_utf8, binary, large_binary or fixed_size_binary.
Array MakeBinary(const DataType& type, const std::vector<std::optional<std::string>>& values);

/// A schema with one nullable column of every type in arrow/type.h (plus a non-nullable int32
/// "id" column), with schema-level and field-level custom metadata.
SchemaPtr AllTypesSchema();
/// `rows` rows for AllTypesSchema(): every third row (i % 3 == 1) is null in nullable columns,
/// values vary with `seed` and the row index, and var-binary values have varying lengths.
RecordBatch AllTypesBatch(int64_t rows, int seed = 0);

/// Schema {id: int32 not null, name: utf8}, and a batch of it (name null every 4th row).
SchemaPtr SimpleSchema();
RecordBatch SimpleBatch(int64_t rows, int seed = 0);

/// Appends an encapsulated message (continuation, size, metadata padded to 8, body).
void AppendFramed(std::span<const uint8_t> flatbuffer, std::span<const uint8_t> body,
                  std::vector<uint8_t>& out);
/// A stream made of `schema`'s message, then one message per (header, body) pair, then the
/// end-of-stream marker when `with_eos`.
struct RawBatch {
  RecordBatchHeader header;
  std::vector<uint8_t> body;
};
std::vector<uint8_t> MakeRawStream(const Schema& schema, const std::vector<RawBatch>& batches,
                                   bool with_eos = true);

Buffer ToBuffer(const std::vector<uint8_t>& bytes);
std::vector<uint8_t> ToVector(const Buffer& buffer);

/// Contents of a file under the shared folder (HIGGINS_SHARED_DIR), or an empty Buffer.
Buffer ReadSharedFile(const std::string& relative_path);

}  // namespace higgins::arrow::ipc::testing
