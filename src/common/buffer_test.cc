#include "higgins/buffer.h"

#include <gtest/gtest.h>

namespace higgins {
namespace {

TEST(BufferTest, CopyIsAlignedAndPaddedWithZeros) {
  Buffer b = Buffer::Copy(std::string_view("hello"));
  EXPECT_EQ(b.size(), 5u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % 64, 0u);
  EXPECT_EQ(b.view(), "hello");
  for (size_t i = 5; i < 64; ++i) EXPECT_EQ(b.data()[i], 0) << i;
}

TEST(BufferTest, SliceSharesOwnership) {
  Buffer slice;
  {
    Buffer b = Buffer::Copy(std::string_view("abcdef"));
    slice = b.Slice(2, 3);
  }
  EXPECT_EQ(slice.view(), "cde");
}

TEST(BufferTest, FromVectorDoesNotCopy) {
  std::vector<uint8_t> v = {1, 2, 3};
  const uint8_t* p = v.data();
  Buffer b = Buffer::FromVector(std::move(v));
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(b.size(), 3u);
}

TEST(BufferBuilderTest, GrowsAndFinishes) {
  BufferBuilder bb;
  for (int i = 0; i < 1000; ++i) bb.AppendValue<int32_t>(i);
  EXPECT_EQ(bb.size(), 4000u);
  EXPECT_EQ(bb.capacity() % 64, 0u);
  Buffer b = bb.Finish();
  EXPECT_EQ(bb.size(), 0u);
  ASSERT_EQ(b.size(), 4000u);
  int32_t v;
  std::memcpy(&v, b.data() + 4 * 999, 4);
  EXPECT_EQ(v, 999);
}

TEST(BufferBuilderTest, ResizeZeroesNewBytes) {
  BufferBuilder bb;
  bb.AppendValue<uint8_t>(7);
  bb.Resize(10);
  Buffer b = bb.Finish();
  EXPECT_EQ(b.data()[0], 7);
  for (size_t i = 1; i < 10; ++i) EXPECT_EQ(b.data()[i], 0);
}

TEST(BufferBuilderTest, EmptyFinishGivesEmptyBuffer) {
  BufferBuilder bb;
  Buffer b = bb.Finish();
  EXPECT_EQ(b.size(), 0u);
  EXPECT_NE(b.data(), nullptr);
}

}  // namespace
}  // namespace higgins
