#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

/// Every byte-level constant of the storage files: frames, segment files, index files
/// (docs/storage-format.md describes the bytes). All integers are little-endian.
namespace higgins::storage {

// ---- Frames (segments and index files) ---------------------------------------------------------

/// A frame: u32 payload length, u32 CRC-32 (zlib polynomial) of the type byte followed by the
/// payload, u8 type, then the payload.
inline constexpr size_t kFrameHeaderSize = 9;
inline constexpr size_t kFrameLengthOffset = 0;
inline constexpr size_t kFrameChecksumOffset = 4;
inline constexpr size_t kFrameTypeOffset = 8;

/// The largest payload a frame may declare: the whole frame's size must fit a u32
/// (EntryLocation::size). A larger length field is damage ("bad length").
inline constexpr uint32_t kMaxFramePayload = UINT32_MAX - kFrameHeaderSize;

/// Frame types. 0 is never written, so zero-filled bytes never pass as a frame (their checksum
/// fails too).
enum class FrameType : uint8_t {
  kSchema = 1,       // segment: the Arrow IPC schema message, first frame of every segment
  kBatch = 2,        // segment: batch prefix + one Arrow IPC record batch message
  kIndexRecord = 3,  // index file: one IndexRecord
};

// ---- Segment files -----------------------------------------------------------------------------

/// <directory>/<stream id>/<bucket>/<base sequence, 20 digits>.segment
inline constexpr std::string_view kSegmentSuffix = ".segment";
inline constexpr size_t kSegmentNameDigits = 20;

/// Segment header: magic, version, 2 zero bytes, stream id, bucket, base sequence, then the
/// CRC-32 of the 28 bytes before it.
inline constexpr std::string_view kSegmentMagic = "HGSEG";
inline constexpr uint8_t kSegmentFormatVersion = 1;
inline constexpr size_t kSegmentHeaderSize = 32;
inline constexpr size_t kSegmentVersionOffset = 5;
inline constexpr size_t kSegmentStreamIdOffset = 8;
inline constexpr size_t kSegmentBucketOffset = 16;
inline constexpr size_t kSegmentBaseSequenceOffset = 20;
inline constexpr size_t kSegmentHeaderChecksumOffset = 28;

/// The payload of a kBatch frame starts with: u64 base sequence, u32 row count, i64 commit
/// timestamp (ms since the Unix epoch); the IPC record batch message follows.
inline constexpr size_t kBatchPrefixSize = 20;
inline constexpr size_t kBatchRowCountOffset = 8;
inline constexpr size_t kBatchTimestampOffset = 12;

// ---- Index files -------------------------------------------------------------------------------

/// Index file header: magic, version, 2 zero bytes; kIndexRecord frames follow.
inline constexpr std::string_view kIndexMagic = "HGIDX";
inline constexpr uint8_t kIndexFormatVersion = 1;
inline constexpr size_t kIndexHeaderSize = 8;
inline constexpr size_t kIndexVersionOffset = 5;

// ---- I/O sizes (not part of the format) --------------------------------------------------------

/// LogReader reads files in chunks of this size (more when one frame is larger).
inline constexpr size_t kReadChunkBytes = 1 << 20;
/// IndexLog writes its buffered records once they pass this size.
inline constexpr size_t kIndexBufferBytes = 1 << 20;

}  // namespace higgins::storage
