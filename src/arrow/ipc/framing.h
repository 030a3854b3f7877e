#pragma once

#include <cstdint>
#include <string_view>

#include "higgins/bit_util.h"

/// Constants of the Arrow IPC framing (docs/arrow-ipc.md, "Framing"). This is the one place the
/// byte-level numbers live; metadata.h covers the FlatBuffers part.
namespace higgins::arrow::ipc {

/// First word of an encapsulated message since Arrow 0.15. Before it, a message began directly
/// with its int32 metadata size (the "legacy" framing).
inline constexpr uint32_t kContinuationMarker = 0xFFFFFFFFu;

/// Messages, body buffers and bodies are aligned and padded to this many bytes.
inline constexpr int64_t kIpcAlignment = 8;

/// Continuation marker + int32 metadata size.
inline constexpr int64_t kMessagePrefixSize = 8;
/// The prefix of a legacy message: int32 metadata size only.
inline constexpr int64_t kLegacyPrefixSize = 4;

/// End-of-stream marker: continuation + zero length.
inline constexpr uint8_t kEndOfStream[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};

/// File format: "ARROW1" at both ends; the leading copy is padded to 8 bytes with zeros.
inline constexpr std::string_view kFileMagic = "ARROW1";
inline constexpr int64_t kFileHeaderSize = 8;
/// int32 footer length + trailing magic.
inline constexpr int64_t kFileTrailerSize = 4 + 6;
/// Bytes of a file that are not footer: a valid footer length is in (0, file size - this].
inline constexpr int64_t kMinFileSize = kFileHeaderSize + kFileTrailerSize;

/// Length prefix of each compressed body buffer: the uncompressed size, or this value when the
/// bytes after the prefix are stored uncompressed.
inline constexpr int64_t kUncompressedPrefixValue = -1;
inline constexpr int64_t kCompressionPrefixSize = 8;

inline constexpr int64_t PadToAlignment(int64_t n) {
  return bit_util::RoundUp(n, kIpcAlignment);
}

}  // namespace higgins::arrow::ipc
