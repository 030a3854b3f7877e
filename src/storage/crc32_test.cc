#include "storage/crc32.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <vector>

namespace higgins::storage {
namespace {

uint32_t Zlib(uint32_t crc, const std::vector<uint8_t>& bytes, size_t offset, size_t n) {
  return n == 0 ? crc : static_cast<uint32_t>(crc32_z(crc, bytes.data() + offset, n));
}

TEST(Crc32Test, KnownValue) {
  const std::string text = "123456789";
  EXPECT_EQ(Crc32(0, reinterpret_cast<const uint8_t*>(text.data()), text.size()), 0xCBF43926u);
  EXPECT_EQ(Crc32(0x12345678, nullptr, 0), 0x12345678u);
}

// Every length up to 1 KiB at every alignment, plus large buffers, against zlib.
TEST(Crc32Test, AgreesWithZlib) {
  std::mt19937 random(42);
  std::vector<uint8_t> bytes(3 << 20);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(random());
  for (size_t offset = 0; offset < 16; ++offset) {
    for (size_t n = 0; n <= 1024; ++n) {
      ASSERT_EQ(Crc32(0, bytes.data() + offset, n), Zlib(0, bytes, offset, n))
          << offset << " " << n;
    }
  }
  for (size_t n : {size_t{65536}, size_t{100003}, bytes.size() - 7}) {
    EXPECT_EQ(Crc32(0, bytes.data() + 7, n), Zlib(0, bytes, 7, n)) << n;
  }
  // Chained like frame pieces: type byte, prefix, message.
  const uint32_t chained =
      Crc32(Crc32(Crc32(0, bytes.data(), 1), bytes.data() + 1, 20), bytes.data() + 21, 200000);
  EXPECT_EQ(chained, Zlib(0, bytes, 0, 200021));
}

}  // namespace
}  // namespace higgins::storage
