// Fuzzes the Arrow IPC decoders with untrusted bytes: the sans-I/O stream decoder fed in two
// chunks, the one-shot stream reader and the file reader. Every input must yield batches or an
// error Status; anything else (crash, sanitizer report, leak) is a bug.
#include <cstddef>
#include <cstdint>

#include "higgins/arrow/ipc/reader.h"
#include "arrow/ipc/stream_decoder.h"
#include "arrow/validate.h"

using higgins::Buffer;
namespace ipc = higgins::arrow::ipc;

namespace {

ipc::ReadOptions SmallLimits() {
  ipc::ReadOptions options;
  options.limits.max_metadata_bytes = 1 << 20;
  options.limits.max_body_bytes = 16 << 20;
  options.limits.max_decompressed_buffer_bytes = 16 << 20;
  options.limits.max_batch_rows = 1 << 20;  // CheckBatches visits every row
  return options;
}

void CheckBatches(const ipc::ReadResult& result) {
  for (const auto& batch : result.batches) {
    // A batch that passed the reader's full validation must validate again and be readable.
    if (!higgins::arrow::ValidateFull(batch).ok()) __builtin_trap();
    for (int c = 0; c < batch.num_columns(); ++c) {
      const auto& col = batch.column(c);
      for (int64_t i = 0; i < col.length(); ++i) {
        if (col.IsValid(i) && col.type().layout() != higgins::arrow::Layout::kFixedWidth) {
          (void)col.BinaryValue(i);
        }
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Buffer bytes = Buffer::Copy(std::span<const uint8_t>(data, size));
  const ipc::ReadOptions options = SmallLimits();

  if (auto r = ipc::ReadStream(bytes, options); r.ok()) CheckBatches(*r);
  if (auto r = ipc::ReadFile(bytes, options); r.ok()) CheckBatches(*r);

  ipc::StreamDecoder decoder(options);
  const size_t split = size / 2;
  if (decoder.Consume(std::span<const uint8_t>(data, split)).ok()) {
    while (decoder.Poll()) {
    }
    if (decoder.Consume(std::span<const uint8_t>(data + split, size - split)).ok()) {
      while (decoder.Poll()) {
      }
    }
  }
  return 0;
}
