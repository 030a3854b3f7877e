#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "arrow/ipc/metadata.h"
#include "common/ids.h"
#include "higgins/arrow/record_batch.h"
#include "higgins/buffer.h"
#include "higgins/result.h"

namespace higgins::storage {

/// One entry of a segment object: the rows it holds, its commit time and the Arrow IPC file
/// block (absolute offset, metadata length, body length) of its record batch message.
struct ObjectEntry {
  Sequence base_sequence;
  uint32_t row_count = 0;
  int64_t timestamp_ms = 0;
  arrow::ipc::FileBlock block;
  /// Bytes of the encapsulated message: the range a reader fetches.
  uint64_t message_bytes() const {
    return static_cast<uint64_t>(block.metadata_length) + static_cast<uint64_t>(block.body_length);
  }
};

/// What a segment object's footer says (docs/storage-format.md, "Segment objects").
struct SegmentObjectInfo {
  StreamId stream_id;
  BucketId bucket;
  Sequence base_sequence;
  std::vector<ObjectEntry> entries;
  /// The sequence after the object's last row.
  Sequence end_sequence() const {
    return entries.empty() ? base_sequence
                           : entries.back().base_sequence + entries.back().row_count;
  }
};

/// The bytes at the end of an Arrow IPC file: the footer length (int32) and "ARROW1".
inline constexpr size_t kObjectTrailerSize = 10;

/// "<base sequence as 20 digits>.arrow", the object name of a segment within its bucket prefix.
std::string SegmentObjectName(Sequence base_sequence);
/// The base sequence of a segment object name, or nullopt for any other name.
std::optional<Sequence> ParseSegmentObjectName(std::string_view name);

/// One batch of a sealed segment, as the uploader reads it back from the local log.
struct SealedEntry {
  Sequence base_sequence;
  int64_t timestamp_ms = 0;
  arrow::RecordBatch batch;
};

/// Encodes a sealed segment as an Arrow IPC file (sans-I/O): the stream's schema with the
/// schema-level metadata `higgins.stream_id`, `higgins.bucket`, `higgins.base_sequence` and
/// `higgins.entries` (each entry's "rows:timestamp_ms", ';'-separated), then one record batch
/// per entry. Any Arrow reader reads it; the metadata lets a broker rebuild the entry list
/// from the footer alone. `entries` must be consecutive from `base_sequence` (InvalidArgument
/// otherwise); errors of the IPC writer pass through (ResourceExhausted above its limits).
Result<Buffer> EncodeSegmentObject(const arrow::SchemaPtr& schema, StreamId stream_id,
                                   BucketId bucket, Sequence base_sequence,
                                   std::span<const SealedEntry> entries);

/// The footer length from the last kObjectTrailerSize bytes of an object of `object_size`
/// bytes. Corruption when the magic is missing or the length does not fit the object.
Result<uint32_t> DecodeObjectTrailer(std::span<const uint8_t> trailer, uint64_t object_size);

/// Decodes a segment object's footer flatbuffer (the `footer_length` bytes before the trailer)
/// and checks it against what the object's place says: `stream_id`, `bucket`, `base_sequence`
/// (from its key) and the stream's `schema` (same fields; metadata may differ), one block per
/// listed entry, blocks inside `object_size`. Corruption on any disagreement.
Result<SegmentObjectInfo> DecodeSegmentObjectFooter(std::span<const uint8_t> footer,
                                                    const arrow::Schema& schema, StreamId stream_id,
                                                    BucketId bucket, Sequence base_sequence,
                                                    uint64_t object_size);

}  // namespace higgins::storage
