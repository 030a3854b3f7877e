#include "storage/log_frame.h"

#include "higgins/bit_util.h"
#include "storage/crc32.h"

namespace higgins::storage {
namespace {

uint32_t ExtendChecksum(uint32_t crc, ByteSpan bytes) {
  return Crc32(crc, bytes.data(), bytes.size());
}

}  // namespace

uint32_t FrameChecksum(uint8_t type, std::initializer_list<ByteSpan> pieces) {
  uint32_t crc = ExtendChecksum(0, {&type, 1});
  for (ByteSpan piece : pieces) crc = ExtendChecksum(crc, piece);
  return crc;
}

void EncodeFrameHeader(FrameType type, std::initializer_list<ByteSpan> pieces, uint8_t* out) {
  size_t length = 0;
  for (ByteSpan piece : pieces) length += piece.size();
  const auto raw_type = static_cast<uint8_t>(type);
  bit_util::StoreLE<uint32_t>(out + kFrameLengthOffset, static_cast<uint32_t>(length));
  bit_util::StoreLE<uint32_t>(out + kFrameChecksumOffset, FrameChecksum(raw_type, pieces));
  out[kFrameTypeOffset] = raw_type;
}

void AppendFrame(FrameType type, ByteSpan payload, BufferBuilder& out) {
  uint8_t header[kFrameHeaderSize];
  EncodeFrameHeader(type, {payload}, header);
  out.Reserve(kFrameHeaderSize + payload.size());
  out.Append(header, kFrameHeaderSize);
  out.Append(payload);
}

FrameHeader DecodeFrameHeader(const uint8_t* bytes) {
  return {bit_util::LoadLE<uint32_t>(bytes + kFrameLengthOffset),
          bit_util::LoadLE<uint32_t>(bytes + kFrameChecksumOffset), bytes[kFrameTypeOffset]};
}

std::string_view FrameErrorName(FrameError error) {
  switch (error) {
    case FrameError::kNone: return "no error";
    case FrameError::kTruncated: return "truncated frame";
    case FrameError::kBadLength: return "bad frame length";
    case FrameError::kBadChecksum: return "frame checksum mismatch";
  }
  return "unknown frame error";
}

DecodedFrame DecodeFrame(ByteSpan bytes) {
  DecodedFrame frame;
  if (bytes.size() < kFrameHeaderSize) {
    frame.error = FrameError::kTruncated;
    return frame;
  }
  const FrameHeader header = DecodeFrameHeader(bytes.data());
  frame.type = header.type;
  if (header.length > kMaxFramePayload) {
    frame.error = FrameError::kBadLength;
    return frame;
  }
  if (bytes.size() - kFrameHeaderSize < header.length) {
    frame.error = FrameError::kTruncated;
    return frame;
  }
  const ByteSpan payload = bytes.subspan(kFrameHeaderSize, header.length);
  if (FrameChecksum(header.type, {payload}) != header.checksum) {
    frame.error = FrameError::kBadChecksum;
    return frame;
  }
  frame.payload = payload;
  frame.size = kFrameHeaderSize + header.length;
  return frame;
}

}  // namespace higgins::storage
