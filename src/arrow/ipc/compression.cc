#include "arrow/ipc/compression.h"

#include <lz4frame.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <memory>
#include <string>

#include "arrow/ipc/framing.h"
#include "higgins/bit_util.h"

namespace higgins::arrow::ipc {
namespace {

// Compresses `input` into `scratch` (resized to the frame's size).
Status CompressFrame(Compression codec, std::span<const uint8_t> input, int zstd_level,
                     std::vector<uint8_t>& scratch) {
  if (codec == Compression::kLz4Frame) {
    const size_t bound = LZ4F_compressFrameBound(input.size(), nullptr);
    if (scratch.size() < bound) scratch.resize(bound);
    const size_t n = LZ4F_compressFrame(scratch.data(), bound, input.data(), input.size(), nullptr);
    if (LZ4F_isError(n)) {
      return Status::Internal(std::string("LZ4 frame compression failed: ") + LZ4F_getErrorName(n));
    }
    scratch.resize(n);
    return Status::OK();
  }
  const size_t bound = ZSTD_compressBound(input.size());
  if (scratch.size() < bound) scratch.resize(bound);
  const size_t n = ZSTD_compress(scratch.data(), bound, input.data(), input.size(), zstd_level);
  if (ZSTD_isError(n)) {
    return Status::Internal(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
  }
  scratch.resize(n);
  return Status::OK();
}

struct Lz4ContextDeleter {
  void operator()(LZ4F_dctx* ctx) const { LZ4F_freeDecompressionContext(ctx); }
};

// Decodes the LZ4 frame(s) in `in` into exactly `out.size()` bytes.
Status DecompressLz4(std::span<const uint8_t> in, std::span<uint8_t> out) {
  LZ4F_dctx* raw = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&raw, LZ4F_VERSION))) {
    return Status::Internal("cannot create an LZ4 decompression context");
  }
  std::unique_ptr<LZ4F_dctx, Lz4ContextDeleter> ctx(raw);
  size_t produced = 0;
  size_t consumed = 0;
  uint8_t overflow_probe[1];
  for (;;) {
    // Once `out` is full, decode into a one-byte probe: any output there means the frame holds
    // more than the prefix declared.
    const bool full = produced == out.size();
    uint8_t* dst = full ? overflow_probe : out.data() + produced;
    size_t dst_size = full ? sizeof(overflow_probe) : out.size() - produced;
    size_t src_size = in.size() - consumed;
    const size_t hint =
        LZ4F_decompress(ctx.get(), dst, &dst_size, in.data() + consumed, &src_size, nullptr);
    if (LZ4F_isError(hint)) {
      return Status::Corruption(std::string("invalid LZ4 frame: ") + LZ4F_getErrorName(hint));
    }
    if (full && dst_size != 0) {
      return Status::Corruption("LZ4 frame decompresses to more than the declared " +
                                std::to_string(out.size()) + " bytes");
    }
    if (!full) produced += dst_size;
    consumed += src_size;
    if (hint == 0 && consumed == in.size()) break;  // last frame complete
    if (src_size == 0 && dst_size == 0) {
      return Status::Corruption("truncated LZ4 frame");
    }
  }
  if (produced != out.size()) {
    return Status::Corruption("LZ4 frame decompressed to " + std::to_string(produced) +
                              " bytes, the prefix declared " + std::to_string(out.size()));
  }
  return Status::OK();
}

Status DecompressZstd(std::span<const uint8_t> in, std::span<uint8_t> out) {
  uint8_t empty[1];
  uint8_t* dst = out.empty() ? empty : out.data();
  const size_t n = ZSTD_decompress(dst, out.size(), in.data(), in.size());
  if (ZSTD_isError(n)) {
    if (ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall) {
      return Status::Corruption("zstd frame decompresses to more than the declared " +
                                std::to_string(out.size()) + " bytes");
    }
    return Status::Corruption(std::string("invalid zstd frame: ") + ZSTD_getErrorName(n));
  }
  if (n != out.size()) {
    return Status::Corruption("zstd frame decompressed to " + std::to_string(n) +
                              " bytes, the prefix declared " + std::to_string(out.size()));
  }
  return Status::OK();
}

}  // namespace

const char* CompressionName(Compression codec) {
  switch (codec) {
    case Compression::kLz4Frame: return "lz4_frame";
    case Compression::kZstd: return "zstd";
    case Compression::kNone: break;
  }
  return "none";
}

Status AppendCompressedBuffer(Compression codec, std::span<const uint8_t> input,
                              const WriteOptions& options, std::vector<uint8_t>& scratch,
                              BufferBuilder& out) {
  if (input.empty()) return Status::OK();
  if (codec != Compression::kLz4Frame && codec != Compression::kZstd) {
    return Status::Internal("AppendCompressedBuffer called without a codec");
  }
  // Readers refuse to decompress more than max_decompressed_buffer_bytes into one buffer, but
  // take raw bytes as they are.
  bool raw = static_cast<int64_t>(input.size()) > options.limits.max_decompressed_buffer_bytes;
  if (!raw) {
    HIGGINS_RETURN_IF_ERROR(CompressFrame(codec, input, options.zstd_level, scratch));
    const double savings =
        1.0 - static_cast<double>(scratch.size()) / static_cast<double>(input.size());
    raw = savings < options.min_space_savings || scratch.size() >= input.size();
  }
  uint8_t prefix[kCompressionPrefixSize];
  if (raw) {
    bit_util::StoreLE<int64_t>(prefix, kUncompressedPrefixValue);
    out.Append(prefix, sizeof(prefix));
    out.Append(input);
  } else {
    bit_util::StoreLE<int64_t>(prefix, static_cast<int64_t>(input.size()));
    out.Append(prefix, sizeof(prefix));
    out.Append(scratch.data(), scratch.size());
  }
  return Status::OK();
}

Result<Buffer> DecompressBuffer(Compression codec, const Buffer& region,
                                int64_t max_decompressed_bytes) {
  if (region.empty()) return Buffer();
  if (region.size() < static_cast<size_t>(kCompressionPrefixSize)) {
    return Status::Corruption("compressed buffer of " + std::to_string(region.size()) +
                              " bytes is shorter than its 8-byte length prefix");
  }
  const int64_t declared = bit_util::LoadLE<int64_t>(region.data());
  const size_t payload = region.size() - kCompressionPrefixSize;
  if (declared == kUncompressedPrefixValue) {
    return region.Slice(kCompressionPrefixSize, payload);
  }
  if (declared < 0) {
    return Status::Corruption("invalid uncompressed length " + std::to_string(declared));
  }
  if (declared > max_decompressed_bytes) {
    return Status::ResourceExhausted("compressed buffer declares " + std::to_string(declared) +
                                     " bytes, more than the limit of " +
                                     std::to_string(max_decompressed_bytes));
  }
  BufferBuilder builder;
  const auto size = static_cast<size_t>(declared);
  const std::span<uint8_t> out(builder.AppendUninitialized(size), size);
  const std::span<const uint8_t> in(region.data() + kCompressionPrefixSize, payload);
  switch (codec) {
    case Compression::kLz4Frame: HIGGINS_RETURN_IF_ERROR(DecompressLz4(in, out)); break;
    case Compression::kZstd: HIGGINS_RETURN_IF_ERROR(DecompressZstd(in, out)); break;
    case Compression::kNone: return Status::Internal("DecompressBuffer called without a codec");
  }
  return builder.Finish();
}

}  // namespace higgins::arrow::ipc
