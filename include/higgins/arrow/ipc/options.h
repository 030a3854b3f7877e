#pragma once

#include <cstdint>

namespace higgins::arrow::ipc {

/// Body compression codecs (Arrow Message.fbs CompressionType; one frame per buffer).
enum class Compression : uint8_t { kNone, kLz4Frame, kZstd };

/// Explicit limits applied to untrusted input (Arrow Security.rst). Exceeding one is a
/// ResourceExhausted error, never an allocation attempt. Writers check the same limits
/// (WriteOptions::limits), so that what Higgins writes, a reader with these limits reads.
struct IpcLimits {
  int64_t max_metadata_bytes = 16 << 20;                     // one Message or Footer flatbuffer
  int64_t max_body_bytes = int64_t{2} << 30;                 // one message body
  int64_t max_decompressed_buffer_bytes = int64_t{1} << 30;  // one buffer after decompression
  int max_fields = 10000;                                    // fields in a schema
  /// RecordBatch.length. A zero-column batch or a null-type column costs no bytes per row, so
  /// without this a few bytes could declare 2^62 rows for consumers to iterate over. The
  /// default is INT32_MAX, the most rows an Arrow Java vector can hold.
  int64_t max_batch_rows = (int64_t{1} << 31) - 1;
};

struct ReadOptions {
  IpcLimits limits;
  /// Run ValidateFull on every decoded batch (offsets, UTF-8, null counts).
  /// Structural checks (buffer counts and sizes) always run. Turn this off only for bytes the
  /// process wrote itself.
  bool validate_full = true;
};

struct WriteOptions {
  Compression compression = Compression::kNone;
  int zstd_level = 1;
  /// If compressing a buffer does not save at least this fraction, store it raw (length prefix
  /// -1), as Arrow C++ does.
  double min_space_savings = 0.0;
  /// Writers refuse (ResourceExhausted) to produce what a reader with these limits would refuse:
  /// a schema with too many fields, metadata or a footer above max_metadata_bytes, a batch with
  /// too many rows or a body above max_body_bytes. A buffer larger than
  /// max_decompressed_buffer_bytes is stored uncompressed (prefix -1), which readers accept.
  IpcLimits limits;
};

}  // namespace higgins::arrow::ipc
