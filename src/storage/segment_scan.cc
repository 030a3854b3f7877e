#include "storage/segment_scan.h"

#include "common/file_util.h"
#include "higgins/arrow/ipc/reader.h"
#include "storage/log_reader.h"

namespace higgins::storage {
namespace {

Status CorruptAt(const std::string& path, uint64_t offset, const std::string& what) {
  return Status::Corruption(path + " at offset " + std::to_string(offset) + ": " + what);
}

Status CheckHeader(int fd, const std::string& path, const SegmentHeader& expected) {
  uint8_t bytes[kSegmentHeaderSize];
  HIGGINS_RETURN_IF_ERROR(ReadFully(fd, path, 0, bytes, sizeof(bytes)));
  auto header = DecodeSegmentHeader(bytes);
  if (!header.ok()) return header.status().WithContext(path);
  if (!(*header == expected)) {
    return Status::Corruption(path + ": header names stream " + ToString(header->stream_id) +
                              ", bucket " + ToString(header->bucket) + ", base sequence " +
                              ToString(header->base_sequence) +
                              ", which disagrees with the file's place");
  }
  return Status::OK();
}

Status CheckSchema(const LogReader::Frame& frame, const std::string& path,
                   const arrow::Schema& schema) {
  if (frame.type != static_cast<uint8_t>(FrameType::kSchema)) {
    return CorruptAt(path, frame.position, "the first frame is not a schema frame");
  }
  auto decoded = arrow::ipc::ReadStream(Buffer::Copy(frame.payload));
  if (!decoded.ok()) {
    return CorruptAt(path, frame.position, "undecodable schema: " + decoded.status().ToString());
  }
  if (!(*decoded->schema == schema)) {
    return CorruptAt(path, frame.position,
                     "the segment holds another schema:\n" + decoded->schema->ToString() +
                         "\nexpected:\n" + schema.ToString());
  }
  return Status::OK();
}

Status AddEntry(const LogReader::Frame& frame, const std::string& path, Sequence segment,
                ScannedSegment& scanned) {
  if (frame.type != static_cast<uint8_t>(FrameType::kBatch)) {
    return CorruptAt(path, frame.position, "unexpected frame type " + std::to_string(frame.type));
  }
  if (frame.payload.size() < kBatchPrefixSize) {
    return CorruptAt(path, frame.position, "batch frame shorter than its prefix");
  }
  const BatchPrefix prefix = DecodeBatchPrefix(frame.payload.data());
  if (prefix.row_count == 0 || prefix.row_count > INT32_MAX) {
    return CorruptAt(path, frame.position,
                     "batch of " + std::to_string(prefix.row_count) + " rows");
  }
  if (prefix.base_sequence != scanned.next_sequence) {
    return CorruptAt(path, frame.position,
                     "batch starts at sequence " + ToString(prefix.base_sequence) + ", expected " +
                         ToString(scanned.next_sequence));
  }
  scanned.entries.push_back({prefix.base_sequence,
                             prefix.row_count,
                             prefix.timestamp_ms,
                             {segment.value(), frame.position, frame.size}});
  scanned.next_sequence += prefix.row_count;
  return Status::OK();
}

}  // namespace

Result<ScannedSegment> ScanSegment(int fd, const std::string& path, const SegmentHeader& expected,
                                   const arrow::Schema& schema) {
  ScannedSegment scanned;
  scanned.next_sequence = expected.base_sequence;
  HIGGINS_ASSIGN_OR_RETURN(scanned.file_size, FileSize(fd, path));
  if (scanned.file_size < kSegmentHeaderSize) {
    scanned.damage = FrameError::kTruncated;
    return scanned;
  }
  HIGGINS_RETURN_IF_ERROR(CheckHeader(fd, path, expected));
  LogReader reader(fd, path, kSegmentHeaderSize, scanned.file_size);
  while (true) {
    HIGGINS_ASSIGN_OR_RETURN(std::optional<LogReader::Frame> frame, reader.Next());
    if (!frame) break;
    if (!scanned.has_schema) {
      HIGGINS_RETURN_IF_ERROR(CheckSchema(*frame, path, schema));
      scanned.has_schema = true;
    } else {
      HIGGINS_RETURN_IF_ERROR(AddEntry(*frame, path, expected.base_sequence, scanned));
    }
  }
  scanned.damage = reader.error();
  scanned.valid_end = scanned.has_schema ? reader.valid_end() : 0;
  return scanned;
}

}  // namespace higgins::storage
