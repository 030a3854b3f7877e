#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "higgins/arrow/schema.h"
#include "higgins/result.h"
#include "storage/log_frame.h"
#include "storage/segment.h"
#include "storage/storage.h"

namespace higgins::storage {

/// What scanning one segment file found.
struct ScannedSegment {
  std::vector<EntryInfo> entries;  // one per valid batch frame, in file order
  Sequence next_sequence;          // the sequence after the last entry
  uint64_t file_size = 0;
  /// Where the valid part ends: after the last valid frame, or 0 when not even the header and
  /// the schema frame are intact.
  uint64_t valid_end = 0;
  /// Why the scan stopped before file_size (kNone when the whole file is valid). A short header
  /// counts as kTruncated.
  FrameError damage = FrameError::kNone;
  bool has_schema = false;  // the header and the schema frame are intact
};

/// Reads a whole segment file frame by frame (recovery; see docs/storage-format.md). Its header
/// must state `expected`, its first frame must be a schema message equal to `schema`, and its
/// batch frames must hold consecutive sequences from expected.base_sequence.
///
/// Damage (a truncated frame, a bad length, a checksum mismatch, a short header) ends the scan
/// and is reported in the result, not as an error: only the caller knows whether the file is
/// the newest one, whose damaged tail is cut. A frame whose checksum holds but whose contents
/// are wrong was written that way and is an error. Errors: IOError; Corruption (naming the file
/// and offset) for a bad or mismatched header, a first frame that is not a schema, another
/// schema, an unexpected frame type, a malformed batch prefix or a sequence gap.
Result<ScannedSegment> ScanSegment(int fd, const std::string& path, const SegmentHeader& expected,
                                   const arrow::Schema& schema);

}  // namespace higgins::storage
