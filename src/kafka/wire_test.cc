// Kafka primitive types: big-endian integers, the four string/bytes shapes, array counts, the
// compact forms of flexible versions, tagged-field skipping, and the Reader's sticky failure.
#include "kafka/wire.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "kafka/test_bytes.h"

namespace higgins::kafka {
namespace {

using testing::Hex;

TEST(WireTest, ReadsBigEndianIntegers) {
  const std::string bytes = Hex("ff | 1234 | 80000000 | 0102030405060708 | fffffffe | 02");
  Reader r(bytes);
  EXPECT_EQ(r.Int8(), -1);
  EXPECT_EQ(r.Int16(), 0x1234);
  EXPECT_EQ(r.Int32(), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(r.Int64(), 0x0102030405060708);
  EXPECT_EQ(r.Uint32(), 0xfffffffeu);
  EXPECT_TRUE(r.Boolean());  // any non-zero byte
  EXPECT_TRUE(r.Finish("test").ok());
}

TEST(WireTest, WritesBigEndianIntegers) {
  std::string out;
  Writer w(&out);
  w.Int8(-1);
  w.Int16(0x1234);
  w.Int32(std::numeric_limits<int32_t>::min());
  w.Int64(0x0102030405060708);
  w.Uint32(0xfffffffe);
  w.Boolean(true);
  w.Boolean(false);
  EXPECT_EQ(out, Hex("ff 1234 80000000 0102030405060708 fffffffe 01 00"));
}

TEST(WireTest, TruncatedIntegerNamesTypeAndByte) {
  const std::string bytes = Hex("0001 000000");
  Reader r(bytes);
  EXPECT_EQ(r.Int16(), 1);
  EXPECT_EQ(r.Int32(), 0);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status(), Status::Corruption("truncated INT32 at byte 2"));
}

TEST(WireTest, FailureIsSticky) {
  const std::string bytes = Hex("00 0000000000000007");
  Reader r(bytes);
  EXPECT_EQ(r.Int16(), 0);  // 00 00: fine
  EXPECT_EQ(r.Int64(), 0);  // 7 bytes left: fails
  EXPECT_EQ(r.Int8(), 0);   // later reads return zero even though bytes remain in the input
  EXPECT_EQ(r.String(), "");
  EXPECT_EQ(r.NullableBytes(), std::nullopt);
  EXPECT_EQ(r.status(), Status::Corruption("truncated INT64 at byte 2"));
  EXPECT_EQ(r.Finish("Thing").code(), StatusCode::kCorruption);
  EXPECT_EQ(r.Finish("Thing").message(), "Thing: truncated INT64 at byte 2");
}

TEST(WireTest, StringsAreViewsIntoTheInput) {
  const std::string bytes = Hex("0003 616263 | ffff | 0000");
  Reader r(bytes);
  const std::string_view abc = r.String();
  EXPECT_EQ(abc, "abc");
  EXPECT_EQ(abc.data(), bytes.data() + 2);
  EXPECT_EQ(r.NullableString(), std::nullopt);
  EXPECT_EQ(r.NullableString(), std::optional<std::string_view>(""));
  EXPECT_TRUE(r.Finish("test").ok());
}

TEST(WireTest, NullNonNullableStringIsCorruption) {
  const std::string bytes = Hex("0001 ffff");
  Reader r(bytes);
  r.Int16();
  EXPECT_EQ(r.String(), "");
  EXPECT_EQ(r.status(), Status::Corruption("null STRING at byte 2"));
}

TEST(WireTest, NegativeStringLengthOtherThanMinusOneIsCorruption) {
  const std::string bytes = Hex("fffe 61");
  Reader r(bytes);
  EXPECT_EQ(r.NullableString(), std::nullopt);
  EXPECT_EQ(r.status(), Status::Corruption("negative STRING length -2 at byte 0"));
}

TEST(WireTest, StringLongerThanInputIsCorruption) {
  const std::string bytes = Hex("0005 6162");
  Reader r(bytes);
  EXPECT_EQ(r.String(), "");
  EXPECT_EQ(r.status(), Status::Corruption("STRING length 5 exceeds the 2 bytes left at byte 0"));
}

TEST(WireTest, BytesHaveAnInt32Length) {
  const std::string bytes = Hex("00000002 ffee | ffffffff | 7fffffff");
  Reader r(bytes);
  EXPECT_EQ(r.Bytes(), Hex("ffee"));
  EXPECT_EQ(r.NullableBytes(), std::nullopt);
  EXPECT_EQ(r.Bytes(), "");
  EXPECT_EQ(r.status(),
            Status::Corruption("BYTES length 2147483647 exceeds the 0 bytes left at byte 10"));
}

TEST(WireTest, ArrayCountIsBoundedByTheBytesLeft) {
  // A count of 2^31-1 four-byte elements with eight bytes left: refused, not allocated.
  const std::string bytes = Hex("7fffffff 0000000100000002");
  Reader r(bytes);
  EXPECT_EQ(r.ArrayLength(4), 0);
  EXPECT_EQ(r.status(),
            Status::Corruption("ARRAY of 2147483647 elements exceeds the 8 bytes left at byte 0"));

  const std::string fits_bytes = Hex("00000002 0000000100000002");
  Reader fits(fits_bytes);
  EXPECT_EQ(fits.ArrayLength(4), 2);
  const std::string too_many_bytes = Hex("00000003 0000000100000002");
  Reader too_many(too_many_bytes);
  EXPECT_EQ(too_many.ArrayLength(4), 0);
  EXPECT_FALSE(too_many.ok());
}

TEST(WireTest, NullAndNegativeArrayCounts) {
  const std::string nullable_bytes = Hex("ffffffff");
  Reader nullable(nullable_bytes);
  EXPECT_EQ(nullable.NullableArrayLength(), std::nullopt);
  EXPECT_TRUE(nullable.ok());

  const std::string required_bytes = Hex("ffffffff");
  Reader required(required_bytes);
  EXPECT_EQ(required.ArrayLength(), 0);
  EXPECT_EQ(required.status(), Status::Corruption("null ARRAY at byte 0"));

  const std::string negative_bytes = Hex("fffffffe");
  Reader negative(negative_bytes);
  EXPECT_EQ(negative.NullableArrayLength(), std::nullopt);
  EXPECT_EQ(negative.status(), Status::Corruption("negative ARRAY length -2 at byte 0"));
}

TEST(WireTest, CompactFormsStoreLengthPlusOne) {
  std::string out;
  Writer w(&out);
  w.CompactString("abc");
  w.CompactNullableString(std::nullopt);
  w.CompactBytes("");
  w.CompactNullableBytes(std::string_view("z"));
  w.CompactArrayLength(2);
  w.CompactNullArray();
  w.EmptyTaggedFields();
  EXPECT_EQ(out, Hex("04 616263 | 00 | 01 | 02 7a | 03 | 00 | 00"));

  Reader r(out);
  EXPECT_EQ(r.CompactString(), "abc");
  EXPECT_EQ(r.CompactNullableString(), std::nullopt);
  EXPECT_EQ(r.CompactBytes(), "");
  EXPECT_EQ(r.CompactNullableBytes(), std::optional<std::string_view>("z"));
  EXPECT_EQ(r.CompactArrayLength(), 2);
  EXPECT_EQ(r.CompactNullableArrayLength(), std::nullopt);
  r.SkipTaggedFields();
  EXPECT_TRUE(r.Finish("test").ok());
}

TEST(WireTest, CompactLengthOverTwoBytes) {
  const std::string name(200, 'n');
  std::string out;
  Writer(&out).CompactString(name);
  EXPECT_EQ(out.substr(0, 2), Hex("c901"));  // 201 as a varint
  Reader r(out);
  EXPECT_EQ(r.CompactString(), name);
}

TEST(WireTest, MalformedCompactLengths) {
  const std::string null_string_bytes = Hex("00");
  Reader null_string(null_string_bytes);
  EXPECT_EQ(null_string.CompactString(), "");
  EXPECT_EQ(null_string.status(), Status::Corruption("null COMPACT_STRING at byte 0"));

  const std::string truncated_varint_bytes = Hex("80");
  Reader truncated_varint(truncated_varint_bytes);
  truncated_varint.CompactString();
  EXPECT_EQ(truncated_varint.status(),
            Status::Corruption("truncated COMPACT_STRING length at byte 0"));

  const std::string overlong_varint_bytes =
      Hex("8080808080 01");  // six bytes: more than a 32-bit varint
  Reader overlong_varint(overlong_varint_bytes);
  overlong_varint.CompactArrayLength();
  EXPECT_EQ(overlong_varint.status(),
            Status::Corruption("malformed COMPACT_ARRAY length at byte 0"));

  const std::string too_long_bytes = Hex("05 6162");
  Reader too_long(too_long_bytes);
  too_long.CompactBytes();
  EXPECT_EQ(too_long.status(),
            Status::Corruption("COMPACT_BYTES length 4 exceeds the 2 bytes left at byte 0"));

  const std::string huge_array_bytes = Hex("ffffffff0f");  // 2^32 - 1, minus one
  Reader huge_array(huge_array_bytes);
  huge_array.CompactArrayLength();
  EXPECT_EQ(huge_array.status().code(), StatusCode::kCorruption);
}

TEST(WireTest, SkipsTaggedFields) {
  // Two fields: tag 0 with 3 bytes, tag 5 with 1 byte; then an INT8.
  const std::string bytes = Hex("02 | 00 03 aabbcc | 05 01 dd | 7f");
  Reader r(bytes);
  r.SkipTaggedFields();
  EXPECT_EQ(r.Int8(), 0x7f);
  EXPECT_TRUE(r.Finish("test").ok());

  const std::string truncated_bytes = Hex("01 00 05 aabb");
  Reader truncated(truncated_bytes);
  truncated.SkipTaggedFields();
  EXPECT_EQ(truncated.status(), Status::Corruption("truncated tagged field at byte 3"));

  const std::string too_many_bytes = Hex("7f 00 00");
  Reader too_many(too_many_bytes);
  too_many.SkipTaggedFields();
  EXPECT_EQ(too_many.status(),
            Status::Corruption("127 tagged fields exceed the 2 bytes left at byte 1"));
}

TEST(WireTest, FinishRefusesUnreadBytes) {
  const std::string r_bytes = Hex("0001 02");
  Reader r(r_bytes);
  r.Int16();
  EXPECT_EQ(r.Finish("Thing"), Status::Corruption("Thing: 1 unread bytes at byte 2"));
}

TEST(WireTest, ReservedSizeSlotIsFilledLater) {
  std::string out = "x";  // a Writer appends after whatever the string holds
  Writer w(&out);
  const size_t slot = w.ReserveInt32();
  EXPECT_EQ(slot, 1u);
  w.Int32(7);
  w.String("ab");
  w.FillSizeSince(slot);
  EXPECT_EQ(out, "x" + Hex("00000008 00000007 0002 6162"));
  w.FillInt32(slot, -2);
  EXPECT_EQ(out.substr(1, 4), Hex("fffffffe"));
}

TEST(WireTest, NullableWritersWriteMinusOne) {
  std::string out;
  Writer w(&out);
  w.NullableString(std::nullopt);
  w.NullableBytes(std::nullopt);
  w.NullArray();
  w.NullableString(std::string_view(""));
  w.Bytes("");
  EXPECT_EQ(out, Hex("ffff ffffffff ffffffff 0000 00000000"));
}

}  // namespace
}  // namespace higgins::kafka
