#pragma once

#include <cstdint>

namespace higgins::arrow::ipc {

/// Body compression codecs (Arrow Message.fbs CompressionType; one frame per buffer).
enum class Compression : uint8_t { kNone, kLz4Frame, kZstd };

/// Explicit limits applied to untrusted input (Arrow Security.rst). Exceeding one is a
/// ResourceExhausted error, never an allocation attempt.
struct IpcLimits {
  int64_t max_metadata_bytes = 16 << 20;                     // one Message flatbuffer
  int64_t max_body_bytes = int64_t{2} << 30;                 // one message body
  int64_t max_decompressed_buffer_bytes = int64_t{1} << 30;  // one buffer after decompression
  int max_fields = 10000;                                    // fields in a schema
};

struct ReadOptions {
  IpcLimits limits;
  /// Run ValidateFull on every decoded batch (offsets, UTF-8, null counts, decimal precision).
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
};

}  // namespace higgins::arrow::ipc
