// Varints of the Kafka protocol: the guide's ZigZag table, sizes, and malformed input.
#include "kafka/varint.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace higgins::kafka {
namespace {

TEST(VarintTest, ZigZagMapsSmallMagnitudesToSmallNumbers) {
  // The protocol guide's table: 0 → 0, -1 → 1, 1 → 2, -2 → 3, 2147483647 → 4294967294.
  const std::pair<int64_t, uint64_t> table[] = {
      {0, 0}, {-1, 1}, {1, 2}, {-2, 3}, {2147483647, 4294967294u}, {-2147483648LL, 4294967295u}};
  for (auto [value, zigzag] : table) {
    std::string signed_bytes, unsigned_bytes;
    PutVarint(signed_bytes, value);
    PutUvarint(unsigned_bytes, zigzag);
    EXPECT_EQ(signed_bytes, unsigned_bytes) << value;
  }
}

TEST(VarintTest, RoundTripsTheEdges) {
  for (int64_t v : {int64_t{0}, int64_t{63}, int64_t{-64}, int64_t{64}, int64_t{300},
                    std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()}) {
    std::string bytes;
    PutVarint(bytes, v);
    EXPECT_EQ(bytes.size(), VarintSize(v));
    int64_t back = 1;
    EXPECT_EQ(GetVarint(bytes, &back), bytes.size());
    EXPECT_EQ(back, v);
  }
  std::string bytes;
  PutUvarint(bytes, std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(bytes.size(), 10u);
  uint64_t back = 0;
  EXPECT_EQ(GetUvarint(bytes, &back), 10u);
  EXPECT_EQ(back, std::numeric_limits<uint64_t>::max());
}

TEST(VarintTest, KnownBytes) {
  std::string bytes;
  PutUvarint(bytes, 300);
  EXPECT_EQ(bytes, std::string("\xac\x02", 2));
  uint64_t value = 0;
  EXPECT_EQ(GetUvarint(std::string_view("\x96\x01rest", 6), &value), 2u);
  EXPECT_EQ(value, 150u);
}

TEST(VarintTest, RefusesTruncatedTooLongAndOverflowingNumbers) {
  uint64_t value = 7;
  EXPECT_EQ(GetUvarint("", &value), 0u);
  EXPECT_EQ(GetUvarint(std::string_view("\x80\x80", 2), &value), 0u);
  // Six bytes where a 32-bit varint allows five.
  EXPECT_EQ(GetUvarint(std::string_view("\x80\x80\x80\x80\x80\x01", 6), &value, 5), 0u);
  // Ten bytes whose last carries more than bit 63.
  EXPECT_EQ(GetUvarint(std::string_view("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 10), &value),
            0u);
  EXPECT_EQ(value, 7u);
}

}  // namespace
}  // namespace higgins::kafka
