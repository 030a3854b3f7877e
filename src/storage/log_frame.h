#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

#include "higgins/buffer.h"
#include "storage/segment_format.h"

/// Sans-I/O encoding and decoding of the frames that segment and index files are made of
/// (docs/storage-format.md, "Frames"). Stateless and thread-safe; DecodeFrame is the fuzz entry
/// point for everything read back from a storage file.
namespace higgins::storage {

using ByteSpan = std::span<const uint8_t>;

/// CRC-32 (zlib) of `type` followed by the concatenation of `pieces`.
uint32_t FrameChecksum(uint8_t type, std::initializer_list<ByteSpan> pieces);

/// Writes the kFrameHeaderSize-byte header of a frame of `type` whose payload is the
/// concatenation of `pieces` (their total must be at most kMaxFramePayload) into `out`.
void EncodeFrameHeader(FrameType type, std::initializer_list<ByteSpan> pieces, uint8_t* out);

/// Appends a whole frame (header and payload) to `out`.
void AppendFrame(FrameType type, ByteSpan payload, BufferBuilder& out);

/// The three fields of a frame header, as stored (not yet checked).
struct FrameHeader {
  uint32_t length = 0;
  uint32_t checksum = 0;
  uint8_t type = 0;
};

/// Reads a header from `bytes`, which must hold at least kFrameHeaderSize bytes.
FrameHeader DecodeFrameHeader(const uint8_t* bytes);

/// Why bytes are not a frame. Damage is what a torn or corrupted write leaves behind; a frame
/// whose checksum holds was written that way, and its contents are the caller's to judge.
enum class FrameError {
  kNone,
  kTruncated,    // the bytes end inside the header or the payload
  kBadLength,    // the length field exceeds kMaxFramePayload
  kBadChecksum,  // the checksum does not match the type and payload
};
std::string_view FrameErrorName(FrameError error);

struct DecodedFrame {
  FrameError error = FrameError::kNone;
  uint8_t type = 0;  // raw type byte; callers reject types they do not expect
  ByteSpan payload;  // a view into the decoded bytes
  size_t size = 0;   // header + payload, when error == kNone
};

/// Decodes the frame at the start of `bytes` (any bytes after it are ignored).
DecodedFrame DecodeFrame(ByteSpan bytes);

}  // namespace higgins::storage
