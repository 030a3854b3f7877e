#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/ids.h"
#include "higgins/result.h"
#include "storage/log_frame.h"
#include "storage/segment_format.h"

/// Sans-I/O pieces of the segment file format (docs/storage-format.md, "Segment files"): the
/// file header, the prefix of batch frames and file names. Stateless and thread-safe.
namespace higgins::storage {

/// The identity a segment file states in its header; it must agree with the file's place.
struct SegmentHeader {
  StreamId stream_id;
  BucketId bucket;
  Sequence base_sequence;
  friend bool operator==(const SegmentHeader&, const SegmentHeader&) = default;
};

/// Writes the kSegmentHeaderSize-byte header into `out`.
void EncodeSegmentHeader(const SegmentHeader& header, uint8_t* out);

/// Decodes a header from `bytes` (kSegmentHeaderSize bytes or more). Errors: Corruption for a
/// wrong magic or header checksum, or a format version this build cannot read (OpenBucket's
/// contract has no other error kind for a segment it cannot use).
Result<SegmentHeader> DecodeSegmentHeader(ByteSpan bytes);

/// The prefix of every kBatch frame's payload: which rows the entry holds and when they were
/// committed.
struct BatchPrefix {
  Sequence base_sequence;
  uint32_t row_count = 0;
  int64_t timestamp_ms = 0;
};

/// Writes the kBatchPrefixSize-byte prefix into `out`.
void EncodeBatchPrefix(const BatchPrefix& prefix, uint8_t* out);
/// Reads a prefix from `bytes` (kBatchPrefixSize bytes or more).
BatchPrefix DecodeBatchPrefix(const uint8_t* bytes);

/// "<base_sequence as 20 digits>.segment".
std::string SegmentFileName(Sequence base_sequence);
/// The base sequence of a segment file name, or nullopt for any other name.
std::optional<Sequence> ParseSegmentFileName(std::string_view name);

}  // namespace higgins::storage
