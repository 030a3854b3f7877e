#include "arrow/validate.h"

#include <gtest/gtest.h>

#include <cstring>

namespace higgins::arrow {
namespace {

Buffer Bytes(std::initializer_list<uint8_t> bytes) {
  std::vector<uint8_t> v(bytes);
  return Buffer::Copy(std::span<const uint8_t>(v));
}

template <typename T>
Buffer Values(std::initializer_list<T> values) {
  std::vector<T> v(values);
  return Buffer::Copy(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(v.data()),
                                               v.size() * sizeof(T)));
}

Array Make(DataType type, int64_t length, int64_t null_count, std::vector<Buffer> buffers) {
  auto d = std::make_shared<ArrayData>();
  d->type = std::move(type);
  d->length = length;
  d->null_count = null_count;
  d->buffers = std::move(buffers);
  return Array(std::move(d));
}

TEST(ValidateFullTest, OffsetsDecreasing) {
  Array a = Make(DataType::Utf8(), 2, 0, {Buffer(), Values<int32_t>({0, 3, 1}), Buffer::Copy(std::string_view("abc"))});
  Status st = ValidateFull(a);
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_EQ(st.message(), "offsets decrease at slot 1 (3 > 1)");
}

TEST(ValidateFullTest, OffsetPastDataEnd) {
  Array a = Make(DataType::Binary(), 1, 0, {Buffer(), Values<int32_t>({0, 9}), Buffer::Copy(std::string_view("abc"))});
  EXPECT_EQ(ValidateFull(a).message(), "last offset 9 is past the end of the 3-byte data buffer");
}

TEST(ValidateFullTest, NegativeFirstOffset) {
  Array a = Make(DataType::LargeBinary(), 1, 0, {Buffer(), Values<int64_t>({-1, 0}), Buffer()});
  EXPECT_EQ(ValidateFull(a).message(), "first offset -1 is negative");
}

TEST(ValidateFullTest, OffsetsBufferTooSmall) {
  Array a = Make(DataType::Utf8(), 3, 0, {Buffer(), Values<int32_t>({0, 1}), Buffer::Copy(std::string_view("a"))});
  EXPECT_EQ(ValidateFull(a).message(), "offsets buffer has 8 bytes, needs 16");
}

TEST(ValidateFullTest, InvalidUtf8) {
  Array a = Make(DataType::Utf8(), 2, 0,
                 {Buffer(), Values<int32_t>({0, 1, 3}), Buffer::Copy(std::string_view("a\xC3("))});
  EXPECT_EQ(ValidateFull(a).message(), "invalid UTF-8 in slot 1");
  // The same bytes are fine as binary.
  Array b = Make(DataType::Binary(), 2, 0,
                 {Buffer(), Values<int32_t>({0, 1, 3}), Buffer::Copy(std::string_view("a\xC3("))});
  EXPECT_TRUE(ValidateFull(b).ok());
}

TEST(ValidateFullTest, InvalidUtf8BehindNullIsIgnored) {
  Array a = Make(DataType::Utf8(), 2, 1,
                 {Bytes({0x01}), Values<int32_t>({0, 1, 3}), Buffer::Copy(std::string_view("a\xC3("))});
  EXPECT_TRUE(ValidateFull(a).ok());
}

TEST(ValidateFullTest, ACharacterSplitAcrossTwoSlotsIsInvalid) {
  // "é" is C3 A9: valid as a whole buffer, but slot 0 ends and slot 1 starts inside it.
  Array a = Make(DataType::Utf8(), 3, 0,
                 {Buffer(), Values<int32_t>({0, 1, 2, 3}), Buffer::Copy(std::string_view("a\xC3\xA9"))});
  EXPECT_EQ(ValidateFull(a).message(), "invalid UTF-8 in slot 1");
  Array large = Make(DataType::LargeUtf8(), 2, 0,
                     {Buffer(), Values<int64_t>({0, 2, 3}), Buffer::Copy(std::string_view("a\xC3\xA9"))});
  EXPECT_EQ(ValidateFull(large).message(), "invalid UTF-8 in slot 0");
  // Split between two null slots, the bytes are nobody's value.
  Array nulls = Make(DataType::Utf8(), 3, 2,
                     {Bytes({0x01}), Values<int32_t>({0, 1, 2, 3}), Buffer::Copy(std::string_view("a\xC3\xA9"))});
  EXPECT_TRUE(ValidateFull(nulls).ok());
}

TEST(ValidateFullTest, SlicedValidUtf8) {
  Array a = Make(DataType::Utf8(), 3, 0,
                 {Buffer(), Values<int32_t>({0, 2, 4, 8}), Buffer::Copy(std::string_view("\xC3\xA9\xC3\xA9\xF0\x9F\x98\x80"))});
  EXPECT_TRUE(ValidateFull(a).ok());
  EXPECT_TRUE(ValidateFull(a.Slice(1, 2)).ok());
  EXPECT_TRUE(ValidateFull(a.Slice(3, 0)).ok());
}

TEST(ValidateFullTest, ValuesBufferTooSmall) {
  Array a = Make(DataType::Int64(), 3, 0, {Buffer(), Values<int64_t>({1, 2})});
  EXPECT_EQ(ValidateFull(a).message(), "values buffer has 16 bytes, needs 24");
}

TEST(ValidateFullTest, NullCountMismatch) {
  Array a = Make(DataType::Int8(), 3, 0, {Bytes({0x05}), Values<int8_t>({1, 2, 3})});
  EXPECT_EQ(ValidateFull(a).message(), "null_count is 0 but the bitmap has 1 nulls");
  Array b = Make(DataType::Int8(), 3, 1, {Buffer(), Values<int8_t>({1, 2, 3})});
  EXPECT_EQ(ValidateFull(b).message(), "null_count > 0 but no validity bitmap");
}

TEST(ValidateFullTest, WrongBufferCount) {
  Array a = Make(DataType::Utf8(), 0, 0, {Buffer(), Buffer()});
  EXPECT_EQ(ValidateFull(a).message(), "utf8 array has 2 buffers, expected 3");
}

TEST(ValidateFullTest, DecimalWiderThanItsPrecisionIsAccepted) {
  // Arrow writers emit such values (Arrow's own gold files do); only JSON ingestion rejects them.
  Array a = Make(DataType::Decimal128(3, 0), 1, 0, {Buffer(), Values<__int128>({1000})});
  EXPECT_TRUE(ValidateFull(a).ok());
}

TEST(ValidateFullTest, EmptyOffsetsForZeroLengthIsAccepted) {
  Array a = Make(DataType::Utf8(), 0, 0, {Buffer(), Buffer(), Buffer()});
  EXPECT_TRUE(ValidateFull(a).ok());
}

TEST(ValidateFullTest, BatchErrorNamesColumn) {
  SchemaPtr schema = MakeSchema({Field("s", DataType::Utf8())});
  Array a = Make(DataType::Utf8(), 1, 0, {Buffer(), Values<int32_t>({0, 9}), Buffer()});
  auto batch = RecordBatch::Make(schema, 1, {a});
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(ValidateFull(*batch).message(),
            "column 's': last offset 9 is past the end of the 0-byte data buffer");
}

}  // namespace
}  // namespace higgins::arrow
