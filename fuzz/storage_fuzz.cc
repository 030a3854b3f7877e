// libFuzzer target for the storage codecs (docs/storage-format.md): segment headers, log frames
// and index records are read back from disk after crashes, so any bytes must decode to a value
// or an error, never a crash. Decoded index records must re-encode to the same bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "storage/index_codec.h"
#include "storage/log_frame.h"
#include "storage/segment.h"

using namespace higgins::storage;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ByteSpan bytes(data, size);
  (void)DecodeSegmentHeader(bytes);
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
