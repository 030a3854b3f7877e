// libFuzzer target for the storage codecs (docs/storage-format.md): segment headers, log frames
// and index records are read back from disk after crashes, so any bytes must decode to a value
// or an error, never a crash. Decoded index records must re-encode to the same bytes. The same
// bytes also go through the s3 storage's segment object trailer and footer decoders (objects
// come from a bucket anyone with its credentials can write).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "storage/index_codec.h"
#include "storage/log_frame.h"
#include "storage/segment.h"
#include "storage/segment_object.h"

using namespace higgins::storage;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ByteSpan bytes(data, size);
  (void)DecodeSegmentHeader(bytes);
  if (size >= kObjectTrailerSize) {
    (void)DecodeObjectTrailer(bytes.last(kObjectTrailerSize), size + 64);
  }
  static const auto schema = higgins::arrow::MakeSchema(
      {{"id", higgins::arrow::DataType::Utf8()}, {"seq", higgins::arrow::DataType::Int64()}});
  auto footer = DecodeSegmentObjectFooter(bytes, *schema, higgins::StreamId(1),
                                          higgins::BucketId(0), higgins::Sequence(0), size + 4096);
  if (footer.ok()) {
    // A footer that decodes lists consecutive entries, each with a block inside the object.
    higgins::Sequence next(0);
    for (const ObjectEntry& e : footer->entries) {
      if (e.base_sequence != next || e.row_count == 0 ||
          static_cast<uint64_t>(e.block.offset) + e.message_bytes() > size + 4096) {
        std::abort();
      }
      next += e.row_count;
    }
  }
  // Walk the input as a log: frame after frame, as the recovery scan does.
  size_t position = 0;
  while (position < size) {
    DecodedFrame frame = DecodeFrame(bytes.subspan(position));
    if (frame.error != FrameError::kNone) break;
    if (frame.size == 0) std::abort();  // no progress would loop forever
    auto record = DecodeIndexRecord(frame.payload);
    if (record.ok()) {
      higgins::BufferBuilder out;
      EncodeIndexRecord(*record, out);
      if (out.size() != frame.payload.size() ||
          std::memcmp(out.data(), frame.payload.data(), out.size()) != 0) {
        // Varints may have non-minimal encodings on input; decoding the re-encoding must agree.
        auto again = DecodeIndexRecord(ByteSpan(out.data(), out.size()));
        if (!again.ok() || again->key_indexes != record->key_indexes ||
            again->keys != record->keys ||
            again->entry.base_sequence != record->entry.base_sequence) {
          std::abort();
        }
      }
    }
    position += frame.size;
  }
  return 0;
}
