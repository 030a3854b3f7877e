#include "kafka/compression.h"

#include <lz4frame.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <bit>
#include <memory>

#include "kafka/big_endian.h"

namespace higgins::kafka {
namespace {

// snappy-java's stream header: magic, then INT32 version and INT32 compatible version (both 1).
constexpr std::string_view kXerialMagic{"\x82SNAPPY\0", 8};
constexpr size_t kXerialHeaderSize = 16;
constexpr size_t kXerialBlockSize = size_t{32} * 1024;

constexpr int kZstdLevel = 3;
constexpr int kZstdMinWindowLog = 23;  // 8 MiB: what clients' levels use without a pledged size
constexpr int kZstdMaxWindowLog = 27;  // zstd's default limit

Status Truncated(std::string_view codec) {
  return Status::Corruption(std::string(codec) + ": compressed data is truncated");
}

Status TooLarge(std::string_view codec, size_t max_bytes) {
  return Status::ResourceExhausted(std::string(codec) + ": decompressed data exceeds " +
                                   std::to_string(max_bytes) + " bytes");
}

// The output of a streaming decoder: a string grown geometrically up to max_bytes + 1, so that
// passing the bound is seen without ever holding more than about twice the bound.
class BoundedOutput {
 public:
  BoundedOutput(size_t max_bytes, size_t expected) : max_bytes_(max_bytes) {
    out_.resize(std::min(expected, max_bytes) + 1);
  }

  // Room for the decoder to write into; grows the buffer when it is full.
  char* Space() {
    if (used_ == out_.size()) out_.resize(std::min(out_.size() * 2, max_bytes_ + 1));
    return out_.data() + used_;
  }
  size_t SpaceSize() const { return out_.size() - used_; }
  void Commit(size_t n) { used_ += n; }
  bool Exceeded() const { return used_ > max_bytes_; }

  std::string Finish() && {
    out_.resize(used_);
    return std::move(out_);
  }

 private:
  size_t max_bytes_;
  size_t used_ = 0;
  std::string out_;
};

// A first guess of the decompressed size when the data does not say it.
size_t Expected(std::string_view in) {
  return std::max<size_t>(in.size() * 4, 4096);
}

Result<std::string> GzipDecompress(std::string_view in, size_t max_bytes) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 32) != Z_OK) return Status::Internal("gzip: inflateInit2 failed");
  std::unique_ptr<z_stream, decltype(&inflateEnd)> guard(&zs, inflateEnd);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  if (zs.avail_in != in.size()) return Status::ResourceExhausted("gzip: input over 4 GiB");
  BoundedOutput out(max_bytes, Expected(in));
  while (true) {
    zs.next_out = reinterpret_cast<Bytef*>(out.Space());
    const auto space = static_cast<uInt>(std::min<size_t>(out.SpaceSize(), UINT32_MAX));
    zs.avail_out = space;
    const int rc = inflate(&zs, Z_NO_FLUSH);
    out.Commit(space - zs.avail_out);
    if (out.Exceeded()) return TooLarge("gzip", max_bytes);
    if (rc == Z_STREAM_END) {
      if (zs.avail_in == 0) break;
      if (inflateReset(&zs) != Z_OK) return Status::Internal("gzip: inflateReset failed");
      continue;  // another member follows
    }
    if (rc == Z_BUF_ERROR && zs.avail_out == 0) continue;
    if (rc == Z_BUF_ERROR || (rc == Z_OK && zs.avail_in == 0 && zs.avail_out != 0)) {
      return Truncated("gzip");
    }
    if (rc != Z_OK) {
      return Status::Corruption(std::string("gzip: ") + (zs.msg ? zs.msg : "malformed data"));
    }
  }
  return std::move(out).Finish();
}

Result<std::string> SnappyRawDecompress(std::string_view in, size_t max_bytes) {
  size_t n = 0;
  if (!snappy::GetUncompressedLength(in.data(), in.size(), &n)) {
    return Status::Corruption("snappy: malformed block length");
  }
  if (n > max_bytes) return TooLarge("snappy", max_bytes);
  std::string out(n, '\0');
  if (!snappy::RawUncompress(in.data(), in.size(), out.data())) {
    return Status::Corruption("snappy: malformed block");
  }
  return out;
}

// snappy-java framing: a first pass checks the block lengths and adds up the sizes the blocks
// declare, so the output is allocated once, at its exact size.
Result<std::string> SnappyXerialDecompress(std::string_view in, size_t max_bytes) {
  if (in.size() < kXerialHeaderSize) return Status::Corruption("snappy: truncated xerial header");
  size_t total = 0;
  for (size_t pos = kXerialHeaderSize; pos < in.size();) {
    if (in.size() - pos < 4) return Status::Corruption("snappy: truncated xerial block length");
    const auto length = LoadBigEndian<uint32_t>(in.data() + pos);
    pos += 4;
    if (length > in.size() - pos) return Status::Corruption("snappy: truncated xerial block");
    size_t n = 0;
    if (!snappy::GetUncompressedLength(in.data() + pos, length, &n)) {
      return Status::Corruption("snappy: malformed block length");
    }
    if (n > max_bytes - total) return TooLarge("snappy", max_bytes);
    total += n;
    pos += length;
  }
  std::string out(total, '\0');
  size_t written = 0;
  for (size_t pos = kXerialHeaderSize; pos < in.size();) {
    const auto length = LoadBigEndian<uint32_t>(in.data() + pos);
    pos += 4;
    size_t n = 0;
    snappy::GetUncompressedLength(in.data() + pos, length, &n);
    if (!snappy::RawUncompress(in.data() + pos, length, out.data() + written)) {
      return Status::Corruption("snappy: malformed block");
    }
    written += n;
    pos += length;
  }
  return out;
}

Result<std::string> Lz4Decompress(std::string_view in, size_t max_bytes) {
  LZ4F_dctx* raw = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&raw, LZ4F_VERSION))) {
    return Status::Internal("lz4: cannot create a decompression context");
  }
  std::unique_ptr<LZ4F_dctx, decltype(&LZ4F_freeDecompressionContext)> dctx(
      raw, LZ4F_freeDecompressionContext);
  const char* src = in.data();
  size_t remaining = in.size();
  LZ4F_frameInfo_t info{};
  size_t consumed = remaining;
  const size_t header = LZ4F_getFrameInfo(dctx.get(), &info, src, &consumed);
  if (LZ4F_isError(header)) {
    return Status::Corruption(std::string("lz4: ") + LZ4F_getErrorName(header));
  }
  if (info.contentSize > max_bytes) return TooLarge("lz4", max_bytes);
  src += consumed;
  remaining -= consumed;
  BoundedOutput out(max_bytes, info.contentSize != 0 ? info.contentSize : Expected(in));
  while (true) {
    char* dst = out.Space();
    const size_t capacity = out.SpaceSize();
    size_t dst_size = capacity;
    size_t src_size = remaining;
    const size_t hint = LZ4F_decompress(dctx.get(), dst, &dst_size, src, &src_size, nullptr);
    if (LZ4F_isError(hint)) {
      return Status::Corruption(std::string("lz4: ") + LZ4F_getErrorName(hint));
    }
    src += src_size;
    remaining -= src_size;
    out.Commit(dst_size);
    if (out.Exceeded()) return TooLarge("lz4", max_bytes);
    if (hint == 0) {
      if (remaining == 0) break;
      continue;  // another frame follows
    }
    const bool starved = remaining == 0 && dst_size < capacity;
    if (starved || (src_size == 0 && dst_size == 0)) return Truncated("lz4");
  }
  return std::move(out).Finish();
}

Result<std::string> ZstdDecompress(std::string_view in, size_t max_bytes) {
  std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!dctx) return Status::Internal("zstd: cannot create a decompression context");
  const int window_log =
      std::clamp(static_cast<int>(std::bit_width(max_bytes)), kZstdMinWindowLog, kZstdMaxWindowLog);
  ZSTD_DCtx_setParameter(dctx.get(), ZSTD_d_windowLogMax, window_log);
  const unsigned long long declared = ZSTD_getFrameContentSize(in.data(), in.size());
  size_t expected = Expected(in);
  if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR) {
    if (declared > max_bytes) return TooLarge("zstd", max_bytes);
    expected = declared;
  }
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  BoundedOutput out(max_bytes, expected);
  while (true) {
    ZSTD_outBuffer output{out.Space(), out.SpaceSize(), 0};
    const size_t before = input.pos;
    const size_t hint = ZSTD_decompressStream(dctx.get(), &output, &input);
    if (ZSTD_isError(hint)) {
      return Status::Corruption(std::string("zstd: ") + ZSTD_getErrorName(hint));
    }
    out.Commit(output.pos);
    if (out.Exceeded()) return TooLarge("zstd", max_bytes);
    if (hint == 0) {
      if (input.pos == input.size) break;
      continue;  // another frame follows
    }
    const bool starved = input.pos == input.size && output.pos < output.size;
    if (starved || (input.pos == before && output.pos == 0)) {
      return Truncated("zstd");
    }
  }
  return std::move(out).Finish();
}

Status GzipCompress(std::string_view in, std::string& out) {
  z_stream zs{};
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    return Status::Internal("gzip: deflateInit2 failed");
  }
  std::unique_ptr<z_stream, decltype(&deflateEnd)> guard(&zs, deflateEnd);
  const size_t start = out.size();
  const size_t bound = deflateBound(&zs, static_cast<uLong>(in.size()));
  out.resize(start + bound);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data() + start);
  zs.avail_out = static_cast<uInt>(bound);
  if (zs.avail_in != in.size() || zs.avail_out != bound || deflate(&zs, Z_FINISH) != Z_STREAM_END) {
    out.resize(start);
    return Status::Internal("gzip: deflate failed");
  }
  out.resize(start + zs.total_out);
  return Status::OK();
}

void SnappyCompress(std::string_view in, std::string& out) {
  const size_t blocks = (in.size() + kXerialBlockSize - 1) / kXerialBlockSize;
  out.reserve(out.size() + kXerialHeaderSize +
              blocks * (4 + snappy::MaxCompressedLength(kXerialBlockSize)));
  out.append(kXerialMagic);
  char versions[8];
  StoreBigEndian<int32_t>(versions, 1);
  StoreBigEndian<int32_t>(versions + 4, 1);
  out.append(versions, sizeof(versions));
  for (size_t pos = 0; pos < in.size(); pos += kXerialBlockSize) {
    const size_t n = std::min(kXerialBlockSize, in.size() - pos);
    const size_t length_at = out.size();
    out.resize(length_at + 4 + snappy::MaxCompressedLength(n));
    size_t length = 0;
    snappy::RawCompress(in.data() + pos, n, out.data() + length_at + 4, &length);
    StoreBigEndian<uint32_t>(out.data() + length_at, static_cast<uint32_t>(length));
    out.resize(length_at + 4 + length);
  }
}

Status Lz4Compress(std::string_view in, std::string& out) {
  LZ4F_preferences_t prefs{};
  prefs.frameInfo.blockSizeID = LZ4F_max64KB;
  prefs.frameInfo.blockMode = LZ4F_blockIndependent;
  const size_t start = out.size();
  const size_t bound = LZ4F_compressFrameBound(in.size(), &prefs);
  out.resize(start + bound);
  const size_t n = LZ4F_compressFrame(out.data() + start, bound, in.data(), in.size(), &prefs);
  if (LZ4F_isError(n)) {
    out.resize(start);
    return Status::Internal(std::string("lz4: ") + LZ4F_getErrorName(n));
  }
  out.resize(start + n);
  return Status::OK();
}

Status ZstdCompress(std::string_view in, std::string& out) {
  const size_t start = out.size();
  const size_t bound = ZSTD_compressBound(in.size());
  out.resize(start + bound);
  const size_t n = ZSTD_compress(out.data() + start, bound, in.data(), in.size(), kZstdLevel);
  if (ZSTD_isError(n)) {
    out.resize(start);
    return Status::Internal(std::string("zstd: ") + ZSTD_getErrorName(n));
  }
  out.resize(start + n);
  return Status::OK();
}

Status UnknownCodec(Compression codec) {
  return Status::NotSupported("unknown compression codec " +
                              std::to_string(static_cast<int>(codec)));
}

}  // namespace

std::string_view CompressionName(Compression codec) {
  switch (codec) {
    case Compression::kNone: return "none";
    case Compression::kGzip: return "gzip";
    case Compression::kSnappy: return "snappy";
    case Compression::kLz4: return "lz4";
    case Compression::kZstd: return "zstd";
  }
  return "unknown";
}

Result<std::string> Decompress(Compression codec, std::string_view in, size_t max_bytes) {
  switch (codec) {
    case Compression::kNone:
      if (in.size() > max_bytes) return TooLarge("none", max_bytes);
      return std::string(in);
    case Compression::kGzip: return GzipDecompress(in, max_bytes);
    case Compression::kSnappy:
      if (in.substr(0, kXerialMagic.size()) == kXerialMagic) {
        return SnappyXerialDecompress(in, max_bytes);
      }
      return SnappyRawDecompress(in, max_bytes);
    case Compression::kLz4: return Lz4Decompress(in, max_bytes);
    case Compression::kZstd: return ZstdDecompress(in, max_bytes);
  }
  return UnknownCodec(codec);
}

Status CompressAppend(Compression codec, std::string_view in, std::string& out) {
  switch (codec) {
    case Compression::kNone: out.append(in); return Status::OK();
    case Compression::kGzip: return GzipCompress(in, out);
    case Compression::kSnappy: SnappyCompress(in, out); return Status::OK();
    case Compression::kLz4: return Lz4Compress(in, out);
    case Compression::kZstd: return ZstdCompress(in, out);
  }
  return UnknownCodec(codec);
}

Result<std::string> Compress(Compression codec, std::string_view in) {
  std::string out;
  HIGGINS_RETURN_IF_ERROR(CompressAppend(codec, in, out));
  return out;
}

}  // namespace higgins::kafka
