#include "higgins/bit_util.h"

#include <gtest/gtest.h>

#include <vector>

namespace higgins::bit_util {
namespace {

TEST(BitUtilTest, LsbBitOrder) {
  uint8_t bits[2] = {0, 0};
  SetBit(bits, 0);
  SetBit(bits, 9);
  EXPECT_EQ(bits[0], 0x01);
  EXPECT_EQ(bits[1], 0x02);
  EXPECT_TRUE(GetBit(bits, 9));
  ClearBit(bits, 9);
  EXPECT_EQ(bits[1], 0);
}

TEST(BitUtilTest, CountSetBitsAcrossWordsAndOffsets) {
  std::vector<uint8_t> bits(40, 0);
  int expected = 0;
  for (int i = 3; i < 300; i += 3) {
    SetBit(bits.data(), i);
    if (i >= 5 && i < 290) ++expected;
  }
  EXPECT_EQ(CountSetBits(bits.data(), 5, 285), expected);
  EXPECT_EQ(CountSetBits(bits.data(), 0, 0), 0);
}

TEST(BitUtilTest, CopyBitmapWithUnalignedOffsetClearsTail) {
  uint8_t src[3] = {0xFF, 0x0F, 0xF0};
  uint8_t dst[2] = {0xAA, 0xAA};
  CopyBitmap(src, 4, 10, dst);
  // bits 4..13 of src: 1111 (4-7) 111100 (8-13)
  EXPECT_EQ(dst[0], 0xFF);
  EXPECT_EQ(dst[1], 0x00);
}

TEST(BitUtilTest, BigEndianLength) {
  uint8_t b[4];
  StoreBE32(b, 0x01020304);
  EXPECT_EQ(b[0], 1);
  EXPECT_EQ(b[3], 4);
  EXPECT_EQ(LoadBE32(b), 0x01020304u);
}

TEST(BitUtilTest, RoundUpAndBytesForBits) {
  EXPECT_EQ(BytesForBits(0), 0);
  EXPECT_EQ(BytesForBits(9), 2);
  EXPECT_EQ(RoundUp(13, 8), 16);
  EXPECT_EQ(RoundUp(16, 8), 16);
}

}  // namespace
}  // namespace higgins::bit_util
