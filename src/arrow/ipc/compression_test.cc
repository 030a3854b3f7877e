#include "arrow/ipc/compression.h"

#include <gtest/gtest.h>

#include <random>

#include "higgins/bit_util.h"

namespace higgins::arrow::ipc {
namespace {

std::vector<uint8_t> Compressible(size_t n) {
  std::vector<uint8_t> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>((i / 16) % 7);
  return out;
}

std::vector<uint8_t> Random(size_t n) {
  std::mt19937 rng(42);
  std::vector<uint8_t> out(n);
  for (auto& b : out) b = static_cast<uint8_t>(rng());
  return out;
}

Buffer Compress(Compression codec, const std::vector<uint8_t>& input, WriteOptions options = {}) {
  std::vector<uint8_t> scratch;
  BufferBuilder out;
  EXPECT_TRUE(AppendCompressedBuffer(codec, input, options, scratch, out).ok());
  return out.Finish();
}

Buffer WithPrefix(int64_t declared, std::span<const uint8_t> payload) {
  std::vector<uint8_t> bytes(8);
  bit_util::StoreLE<int64_t>(bytes.data(), declared);
  bytes.insert(bytes.end(), payload.begin(), payload.end());
  return Buffer::Copy(bytes);
}

class CompressionTest : public ::testing::TestWithParam<Compression> {};

TEST_P(CompressionTest, RoundTripsWithLengthPrefix) {
  const auto input = Compressible(10000);
  const Buffer region = Compress(GetParam(), input);
  EXPECT_EQ(bit_util::LoadLE<int64_t>(region.data()), 10000);
  EXPECT_LT(region.size(), input.size());
  auto decoded = DecompressBuffer(GetParam(), region, 1 << 20);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_TRUE(decoded->Equals(Buffer::Copy(input)));
}

TEST_P(CompressionTest, FrameHasTheCodecsMagicNumber) {
  const Buffer region = Compress(GetParam(), Compressible(1000));
  const uint32_t magic = bit_util::LoadLE<uint32_t>(region.data() + 8);
  // LZ4 frame format (not the raw block format), and a standard zstd frame.
  EXPECT_EQ(magic, GetParam() == Compression::kLz4Frame ? 0x184D2204u : 0xFD2FB528u);
}

TEST_P(CompressionTest, EmptyInputWritesNothingAndEmptyRegionDecodesEmpty) {
  EXPECT_EQ(Compress(GetParam(), {}).size(), 0u);
  auto decoded = DecompressBuffer(GetParam(), Buffer(), 0);
  ASSERT_TRUE(decoded.ok());
  EXPECT_TRUE(decoded->empty());
}

TEST_P(CompressionTest, IncompressibleInputIsStoredRawAndReadZeroCopy) {
  const auto input = Random(4096);
  const Buffer region = Compress(GetParam(), input);
  EXPECT_EQ(bit_util::LoadLE<int64_t>(region.data()), -1);
  EXPECT_EQ(region.size(), 8 + input.size());
  auto decoded = DecompressBuffer(GetParam(), region, 0);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->data(), region.data() + 8);
  EXPECT_TRUE(decoded->Equals(Buffer::Copy(input)));
}

TEST_P(CompressionTest, MinSpaceSavingsForcesRawStorage) {
  WriteOptions options;
  options.min_space_savings = 0.999;
  const Buffer region = Compress(GetParam(), Compressible(1000), options);
  EXPECT_EQ(bit_util::LoadLE<int64_t>(region.data()), -1);
}

TEST_P(CompressionTest, DeclaredSizeDifferentFromFrameIsCorruption) {
  const auto input = Compressible(5000);
  const Buffer region = Compress(GetParam(), input);
  const std::span<const uint8_t> frame = region.span().subspan(8);
  for (int64_t declared : {int64_t{4999}, int64_t{5001}, int64_t{0}}) {
    auto decoded = DecompressBuffer(GetParam(), WithPrefix(declared, frame), 1 << 20);
    EXPECT_EQ(decoded.status().code(), StatusCode::kCorruption) << declared;
  }
}

TEST(CompressionTest, ConcatenatedLz4FramesDecodeAsOneBuffer) {
  const auto first = Compressible(3000);
  const auto second = Compressible(2000);
  const Buffer a = Compress(Compression::kLz4Frame, first);
  const Buffer b = Compress(Compression::kLz4Frame, second);
  std::vector<uint8_t> frames(a.data() + 8, a.data() + a.size());
  frames.insert(frames.end(), b.data() + 8, b.data() + b.size());
  auto decoded = DecompressBuffer(Compression::kLz4Frame, WithPrefix(5000, frames), 1 << 20);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  std::vector<uint8_t> expected = first;
  expected.insert(expected.end(), second.begin(), second.end());
  EXPECT_TRUE(decoded->Equals(Buffer::Copy(expected)));
}

TEST_P(CompressionTest, TruncatedOrGarbageFrameIsCorruption) {
  const Buffer region = Compress(GetParam(), Compressible(5000));
  auto truncated = DecompressBuffer(GetParam(), region.Slice(0, region.size() - 5), 1 << 20);
  EXPECT_EQ(truncated.status().code(), StatusCode::kCorruption);
  const auto garbage = Random(64);
  auto decoded = DecompressBuffer(GetParam(), WithPrefix(100, garbage), 1 << 20);
  EXPECT_EQ(decoded.status().code(), StatusCode::kCorruption);
}

TEST_P(CompressionTest, RegionShorterThanPrefixIsCorruption) {
  for (size_t n = 1; n < 8; ++n) {
    auto decoded = DecompressBuffer(GetParam(), Buffer::Copy(std::string(n, '\0')), 100);
    EXPECT_EQ(decoded.status().code(), StatusCode::kCorruption) << n;
  }
}

TEST_P(CompressionTest, NegativePrefixOtherThanMinusOneIsCorruption) {
  auto decoded = DecompressBuffer(GetParam(), WithPrefix(-2, std::vector<uint8_t>(8)), 100);
  EXPECT_EQ(decoded.status().code(), StatusCode::kCorruption);
}

TEST_P(CompressionTest, DeclaredSizeAboveLimitIsResourceExhaustedBeforeAllocating) {
  auto decoded =
      DecompressBuffer(GetParam(), WithPrefix(int64_t{1} << 60, std::vector<uint8_t>(8)), 1 << 20);
  EXPECT_EQ(decoded.status().code(), StatusCode::kResourceExhausted);
}

INSTANTIATE_TEST_SUITE_P(Codecs, CompressionTest,
                         ::testing::Values(Compression::kLz4Frame, Compression::kZstd),
                         [](const auto& info) { return std::string(CompressionName(info.param)); });

}  // namespace
}  // namespace higgins::arrow::ipc
