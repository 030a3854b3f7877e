#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "higgins/result.h"
#include "higgins/status.h"

namespace higgins::kafka {

/// The compression codec of a record batch: bits 0-2 of its attributes (Kafka documentation,
/// "Message Format" > "Record Batch"). Values 5-7 are unassigned.
enum class Compression : uint8_t { kNone = 0, kGzip = 1, kSnappy = 2, kLz4 = 3, kZstd = 4 };

/// "none", "gzip", "snappy", "lz4", "zstd", or "unknown".
std::string_view CompressionName(Compression codec);

/// Decompresses the records section of a batch compressed with `codec`, in the framings Kafka
/// clients write:
///   gzip    one or more concatenated gzip members (RFC 1952; zlib streams also accepted);
///   snappy  snappy-java's framing ("\x82SNAPPY\0", INT32 version, INT32 compatible version, then
///           blocks of [INT32 big-endian length][raw snappy block]), or one raw snappy block when
///           the magic is absent (what librdkafka writes);
///   lz4     one or more LZ4 frames (lz4frame), any block size, with or without content size and
///           checksums (a checksum present is verified);
///   zstd    one or more zstd frames, content size known or not.
/// Errors: ResourceExhausted when the output would pass `max_bytes` (the output buffer never
/// grows past twice `max_bytes`; zstd's window buffer is at most max(max_bytes, 8 MiB) and lz4's
/// block buffer at most 4 MiB); Corruption naming the codec for malformed or truncated input;
/// NotSupported for a codec value outside 0-4. kNone copies the input.
Result<std::string> Decompress(Compression codec, std::string_view in, size_t max_bytes);

/// Appends `in` compressed with `codec` to `out`, in framings every Kafka client reads: one gzip
/// member (zlib's default level); snappy-java's framing with 32 KiB blocks; one LZ4 frame with
/// 64 KiB independent blocks and no checksums (as the Java client writes); one zstd frame at
/// level 3 with its content size. Errors: Internal if a library fails (out of memory),
/// NotSupported for a codec value outside 0-4.
Status CompressAppend(Compression codec, std::string_view in, std::string& out);

/// CompressAppend into a new string.
Result<std::string> Compress(Compression codec, std::string_view in);

}  // namespace higgins::kafka
