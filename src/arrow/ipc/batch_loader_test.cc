#include "arrow/ipc/batch_loader.h"

#include <gtest/gtest.h>
#include <lz4frame.h>

#include <chrono>
#include <cstring>

#include "higgins/arrow/ipc/reader.h"
#include "arrow/ipc/test_util.h"
#include "higgins/bit_util.h"

namespace higgins::arrow::ipc {
namespace {

// Assembles a body buffer by buffer (each 8-aligned) and records the regions.
class BodyMaker {
 public:
  BodyMaker& Empty() { return Bytes({}); }
  BodyMaker& Bytes(std::vector<uint8_t> bytes) {
    regions_.push_back({static_cast<int64_t>(body_.size()), static_cast<int64_t>(bytes.size())});
    body_.insert(body_.end(), bytes.begin(), bytes.end());
    body_.resize(static_cast<size_t>(bit_util::RoundUp(static_cast<int64_t>(body_.size()), 8)));
    return *this;
  }
  template <typename T>
  BodyMaker& Values(std::vector<T> values) {
    std::vector<uint8_t> bytes(values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    return Bytes(std::move(bytes));
  }
  BodyMaker& Text(std::string_view text) { return Bytes({text.begin(), text.end()}); }

  testing::RawBatch Batch(int64_t length, std::vector<FieldNode> nodes,
                          Compression compression = Compression::kNone) const {
    testing::RawBatch raw;
    raw.header.length = length;
    raw.header.nodes = std::move(nodes);
    raw.header.buffers = regions_;
    raw.header.compression = compression;
    raw.body = body_;
    return raw;
  }
  std::vector<BufferRegion>& regions() { return regions_; }

 private:
  std::vector<uint8_t> body_;
  std::vector<BufferRegion> regions_;
};

SchemaPtr Int32Schema(bool nullable = true) {
  return MakeSchema({Field("x", DataType::Int32(), nullable)});
}
SchemaPtr Utf8Schema() {
  return MakeSchema({Field("s", DataType::Utf8())});
}

Result<ReadResult> Read(const SchemaPtr& schema, const testing::RawBatch& batch,
                        ReadOptions options = {}) {
  return ReadStream(testing::ToBuffer(testing::MakeRawStream(*schema, {batch})), options);
}

void ExpectCorruption(const Result<ReadResult>& result, std::string_view fragment) {
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kCorruption) << result.status().ToString();
  EXPECT_NE(result.status().message().find(fragment), std::string::npos)
      << result.status().ToString();
}

TEST(BatchLoaderTest, WellFormedHandMadeBatchLoads) {
  const auto batch = BodyMaker().Bytes({0b101}).Values<int32_t>({7, 0, 9}).Batch(3, {{3, 1}});
  auto read = Read(Int32Schema(), batch);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  const Array& x = read->batches[0].column(0);
  EXPECT_EQ(x.Value<int32_t>(2), 9);
  EXPECT_TRUE(x.IsNull(1));
}

TEST(BatchLoaderTest, BufferOutsideTheBodyIsCorruption) {
  BodyMaker body;
  body.Empty().Values<int32_t>({1, 2});
  body.regions()[1].length = 64;
  ExpectCorruption(Read(Int32Schema(), body.Batch(2, {{2, 0}})), "outside the body");
  body.regions()[1] = {-8, 8};
  ExpectCorruption(Read(Int32Schema(), body.Batch(2, {{2, 0}})), "outside the body");
  body.regions()[1] = {INT64_MAX, INT64_MAX};
  ExpectCorruption(Read(Int32Schema(), body.Batch(2, {{2, 0}})), "outside the body");
}

TEST(BatchLoaderTest, UnalignedBufferOffsetIsAcceptedAndCopiedToAlignedMemory) {
  // apache-arrow JS packs LZ4-compressed buffers without padding.
  BodyMaker body;
  body.Empty().Values<int32_t>({1, 2, 3, 4});
  body.regions()[1] = {4, 8};
  auto read = Read(Int32Schema(), body.Batch(2, {{2, 0}}));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  const Array& x = read->batches[0].column(0);
  EXPECT_EQ(x.Value<int32_t>(0), 2);
  EXPECT_EQ(x.Value<int32_t>(1), 3);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(x.data().buffers[1].data()) % 8, 0u);
}

TEST(BatchLoaderTest, NodeAndBufferCountsMustMatchTheSchema) {
  const BodyMaker body = BodyMaker().Empty().Values<int32_t>({1});
  ExpectCorruption(Read(Int32Schema(), body.Batch(1, {})), "field nodes");
  ExpectCorruption(Read(Int32Schema(), body.Batch(1, {{1, 0}, {1, 0}})), "field nodes");
  const BodyMaker extra = BodyMaker().Empty().Values<int32_t>({1}).Empty();
  ExpectCorruption(Read(Int32Schema(), extra.Batch(1, {{1, 0}})), "buffers");
}

TEST(BatchLoaderTest, NodeLengthMustEqualBatchLength) {
  const BodyMaker body = BodyMaker().Empty().Values<int32_t>({1, 2});
  ExpectCorruption(Read(Int32Schema(), body.Batch(1, {{2, 0}})), "batch length");
  ExpectCorruption(Read(Int32Schema(), body.Batch(-1, {{-1, 0}})), "negative");
}

TEST(BatchLoaderTest, NullCountOutsideZeroToLengthIsCorruption) {
  const BodyMaker body = BodyMaker().Bytes({0}).Values<int32_t>({1, 2});
  ExpectCorruption(Read(Int32Schema(), body.Batch(2, {{2, 3}})), "null count");
  ExpectCorruption(Read(Int32Schema(), body.Batch(2, {{2, -1}})), "null count");
}

TEST(BatchLoaderTest, NullsWithoutValidityBitmapAreCorruption) {
  const BodyMaker body = BodyMaker().Empty().Values<int32_t>({1, 2});
  ExpectCorruption(Read(Int32Schema(), body.Batch(2, {{2, 1}})), "without a validity bitmap");
}

TEST(BatchLoaderTest, BuffersTooSmallForTheLengthAreCorruption) {
  const BodyMaker values = BodyMaker().Empty().Values<int32_t>({1, 2});
  ExpectCorruption(Read(Int32Schema(), values.Batch(3, {{3, 0}})), "values buffer");
  const BodyMaker bitmap = BodyMaker().Bytes({0xFF}).Values<int32_t>(std::vector<int32_t>(20));
  ExpectCorruption(Read(Int32Schema(), bitmap.Batch(20, {{20, 1}})), "validity buffer");
  const BodyMaker offsets = BodyMaker().Empty().Values<int32_t>({0, 1}).Text("ab");
  ExpectCorruption(Read(Utf8Schema(), offsets.Batch(2, {{2, 0}})), "offsets buffer");
}

TEST(BatchLoaderTest, NonMonotonicOffsetsAreCorruption) {
  const BodyMaker body = BodyMaker().Empty().Values<int32_t>({0, 3, 1}).Text("abc");
  ExpectCorruption(Read(Utf8Schema(), body.Batch(2, {{2, 0}})), "offsets decrease");
}

TEST(BatchLoaderTest, OffsetsPastTheDataAreCorruption) {
  const BodyMaker body = BodyMaker().Empty().Values<int32_t>({0, 2, 10}).Text("abc");
  ExpectCorruption(Read(Utf8Schema(), body.Batch(2, {{2, 0}})), "past the end");
}

TEST(BatchLoaderTest, InvalidUtf8IsCorruptionUnlessFullValidationIsOff) {
  const BodyMaker body =
      BodyMaker().Empty().Values<int32_t>({0, 2, 4}).Bytes({'o', 'k', 0xC3, 0x28});
  ExpectCorruption(Read(Utf8Schema(), body.Batch(2, {{2, 0}})), "UTF-8");
  ReadOptions trusted;
  trusted.validate_full = false;
  EXPECT_TRUE(Read(Utf8Schema(), body.Batch(2, {{2, 0}}), trusted).ok());
}

TEST(BatchLoaderTest, NullCountDisagreeingWithBitmapIsCorruption) {
  const BodyMaker body = BodyMaker().Bytes({0b11}).Values<int32_t>({1, 2, 3});
  ExpectCorruption(Read(Int32Schema(), body.Batch(3, {{3, 2}})), "null_count");
}

TEST(BatchLoaderTest, NonNullableFieldWithNullsIsCorruption) {
  const BodyMaker body = BodyMaker().Bytes({0b01}).Values<int32_t>({1, 2});
  ExpectCorruption(Read(Int32Schema(/*nullable=*/false), body.Batch(2, {{2, 1}})), "not nullable");
}

TEST(BatchLoaderTest, DecimalWiderThanItsPrecisionDecodes) {
  const SchemaPtr schema = MakeSchema({Field("d", DataType::Decimal128(3, 0))});
  const BodyMaker body = BodyMaker().Empty().Values<__int128>({999, 1000});
  auto read = Read(schema, body.Batch(2, {{2, 0}}));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->batches.at(0).column(0).Decimal128Value(1), 1000);
}

TEST(BatchLoaderTest, EmptyOrSingleOffsetBufferForZeroRowsIsAccepted) {
  for (const BodyMaker& body : {BodyMaker().Empty().Empty().Empty(),                  // Arrow C++
                                BodyMaker().Empty().Values<int32_t>({0}).Empty()}) {  // JS
    auto read = Read(Utf8Schema(), body.Batch(0, {{0, 0}}));
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    const ArrayData& s = read->batches[0].column(0).data();
    ASSERT_GE(s.buffers[1].size(), 4u) << "a single zero offset is always present";
    EXPECT_EQ(bit_util::LoadLE<int32_t>(s.buffers[1].data()), 0);
  }
}

TEST(BatchLoaderTest, PaddedAllValidBitmapIsAccepted) {
  // apache-arrow JS writes 64-byte bitmaps and records the padded length.
  std::vector<uint8_t> bitmap(64, 0xFF);
  const BodyMaker body = BodyMaker().Bytes(bitmap).Values<int32_t>({4, 5, 6});
  auto read = Read(Int32Schema(), body.Batch(3, {{3, 0}}));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->batches[0].column(0).null_count(), 0);
}

TEST(BatchLoaderTest, NullColumnIgnoresTheNodeNullCount) {
  // apache-arrow JS writes null_count -1 for a null column it sliced.
  const SchemaPtr schema = MakeSchema({Field("n", DataType::Null())});
  for (int64_t null_count : {int64_t{-1}, int64_t{0}, int64_t{5}, int64_t{99}}) {
    auto read = Read(schema, BodyMaker().Batch(5, {{5, null_count}}));
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    EXPECT_EQ(read->batches[0].column(0).null_count(), 5);
  }
}

TEST(BatchLoaderTest, NullColumnHasNoBuffersAndAnyLengthLoadsInConstantTime) {
  const SchemaPtr schema = MakeSchema({Field("n", DataType::Null())});
  constexpr int64_t kHuge = int64_t{1} << 50;
  ReadOptions options;
  options.limits.max_batch_rows = kHuge;  // the default row limit refuses this many
  const auto start = std::chrono::steady_clock::now();
  auto read = Read(schema, BodyMaker().Batch(kHuge, {{kHuge, 0}}), options);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(read->batches[0].column(0).null_count(), kHuge);
  EXPECT_EQ(read->batches[0].num_rows(), kHuge);
}

std::vector<uint8_t> Lz4Frame(const std::vector<uint8_t>& input) {
  std::vector<uint8_t> out(LZ4F_compressFrameBound(input.size(), nullptr));
  out.resize(LZ4F_compressFrame(out.data(), out.size(), input.data(), input.size(), nullptr));
  return out;
}

std::vector<uint8_t> Prefixed(int64_t declared, const std::vector<uint8_t>& payload) {
  std::vector<uint8_t> out(8 + payload.size());
  bit_util::StoreLE<int64_t>(out.data(), declared);
  if (!payload.empty()) std::memcpy(out.data() + 8, payload.data(), payload.size());
  return out;
}

TEST(BatchLoaderTest, DecompressedSizeMismatchIsCorruption) {
  std::vector<uint8_t> values(16 * 4, 0);
  for (int64_t declared : {int64_t{64 + 8}, int64_t{64 - 4}}) {
    const BodyMaker body = BodyMaker().Empty().Bytes(Prefixed(declared, Lz4Frame(values)));
    ExpectCorruption(Read(Int32Schema(), body.Batch(16, {{16, 0}}, Compression::kLz4Frame)),
                     "declared");
  }
}

TEST(BatchLoaderTest, CompressedRegionShorterThanItsPrefixIsCorruption) {
  const BodyMaker body = BodyMaker().Empty().Bytes({1, 2, 3});
  ExpectCorruption(Read(Int32Schema(), body.Batch(0, {{0, 0}}, Compression::kZstd)), "prefix");
}

TEST(BatchLoaderTest, DecompressionBombIsResourceExhausted) {
  std::vector<uint8_t> values(1 << 16, 0);
  const BodyMaker body = BodyMaker().Empty().Bytes(Prefixed(1 << 16, Lz4Frame(values)));
  ReadOptions options;
  options.limits.max_decompressed_buffer_bytes = 1 << 12;
  auto read =
      Read(Int32Schema(), body.Batch(1 << 14, {{1 << 14, 0}}, Compression::kLz4Frame), options);
  EXPECT_EQ(read.status().code(), StatusCode::kResourceExhausted) << read.status().ToString();
}

TEST(BatchLoaderTest, RawRegionsInACompressedBodyAreZeroCopy) {
  const BodyMaker body = BodyMaker().Empty().Bytes(Prefixed(-1, {1, 0, 0, 0, 2, 0, 0, 0}));
  const Buffer stream = testing::ToBuffer(
      testing::MakeRawStream(*Int32Schema(), {body.Batch(2, {{2, 0}}, Compression::kZstd)}));
  auto read = ReadStream(stream);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  const Array& x = read->batches[0].column(0);
  EXPECT_EQ(x.Value<int32_t>(1), 2);
  EXPECT_EQ(x.data().buffers[1].owner(), stream.owner());
}

}  // namespace
}  // namespace higgins::arrow::ipc
