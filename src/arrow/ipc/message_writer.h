#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "arrow/ipc/metadata.h"
#include "higgins/arrow/ipc/options.h"
#include "higgins/arrow/record_batch.h"
#include "higgins/buffer.h"

namespace higgins::arrow::ipc {

/// Sizes of one encapsulated message as appended to an output.
struct MessageExtent {
  int32_t metadata_length = 0;  // continuation + size + flatbuffer + padding
  int64_t body_length = 0;
};

/// Appends continuation marker, metadata size, `flatbuffer` and zero padding to a multiple of 8.
/// Returns the metadata length (prefix included).
int32_t AppendMessageMetadata(std::span<const uint8_t> flatbuffer, BufferBuilder& out);

/// ResourceExhausted when `bytes` of `what` ("schema message", "file footer", ...) exceed
/// limits.max_metadata_bytes, which a reader with `limits` would refuse.
Status CheckMetadataSize(int64_t bytes, const IpcLimits& limits, std::string_view what);

/// Appends a Schema message. Nothing is appended when a reader with `limits` would refuse it:
/// ResourceExhausted for more than max_fields fields or metadata above max_metadata_bytes,
/// InvalidArgument for a field name, custom metadata key or value, or time zone that is not
/// valid UTF-8.
Result<MessageExtent> AppendSchemaMessage(const Schema& schema, const IpcLimits& limits,
                                          BufferBuilder& out);

/// Serialises record batches as RecordBatch messages: sliced arrays are rebased (bitmaps
/// re-aligned to bit 0, offsets shifted to start at 0, only the visible values copied), a
/// zero-length validity buffer is written when null_count == 0, each buffer is 8-byte aligned
/// and padded, and each non-empty buffer is compressed on its own when options.compression is
/// set. Uncompressed batches are written straight into the output with one reservation and one
/// memcpy per buffer. Keeps scratch memory between batches; not thread-safe.
class RecordBatchSerializer {
 public:
  explicit RecordBatchSerializer(WriteOptions options) : options_(options) {}

  /// Appends one message for `batch`. Errors, with the output unchanged: InvalidArgument when a
  /// column's buffers are too small for its offset and length or its offsets point outside its
  /// data; ResourceExhausted when a reader with options.limits would refuse the message (more
  /// than max_batch_rows rows, metadata above max_metadata_bytes, a body above max_body_bytes).
  /// Internal when a codec fails.
  Result<MessageExtent> Append(const RecordBatch& batch, BufferBuilder& out);

 private:
  WriteOptions options_;
  BufferBuilder body_;                   // compressed body being assembled
  BufferBuilder staging_;                // one rebased buffer awaiting compression
  std::vector<uint8_t> frame_scratch_;  // codec output
};

}  // namespace higgins::arrow::ipc
