#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "higgins/arrow/ipc/options.h"
#include "higgins/buffer.h"
#include "higgins/result.h"

/// Per-buffer body compression of Arrow IPC (Message.fbs BodyCompression, method BUFFER).
///
/// On the wire a compressed buffer region is `int64 LE uncompressed_length` followed by one LZ4
/// frame (lz4frame.h format, not the raw block format) or one zstd frame. A prefix of -1 means
/// the bytes after it are stored uncompressed; a zero-length region is an empty buffer with no
/// prefix at all. Stateless functions, safe from any thread.
namespace higgins::arrow::ipc {

/// Appends the region for `input` to `out`: nothing when `input` is empty; otherwise the prefix
/// and a frame of `codec` (kLz4Frame or kZstd), or prefix -1 and the raw bytes when the frame
/// would save less than `options.min_space_savings` of the input size or the input is larger
/// than options.limits.max_decompressed_buffer_bytes (readers would refuse to decompress it,
/// and take raw bytes as they are). `scratch` is reused
/// between calls to avoid reallocating. Errors: Internal if the codec library fails.
Status AppendCompressedBuffer(Compression codec, std::span<const uint8_t> input,
                              const WriteOptions& options, std::vector<uint8_t>& scratch,
                              BufferBuilder& out);

/// Decodes one region written as above. A raw (-1) region is returned as a zero-copy slice of
/// `region`; a compressed one is decompressed into a new 64-byte aligned buffer.
/// Errors: Corruption for a region of 1..7 bytes, a prefix below -1, a damaged frame, or a
/// decompressed size different from the prefix; ResourceExhausted when the prefix exceeds
/// `max_decompressed_bytes` (checked before allocating).
Result<Buffer> DecompressBuffer(Compression codec, const Buffer& region,
                                int64_t max_decompressed_bytes);

/// "lz4_frame", "zstd" or "none".
const char* CompressionName(Compression codec);

}  // namespace higgins::arrow::ipc
