#include "kafka/crc32c.h"

#include <array>
#include <cstddef>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace higgins::kafka {
namespace {

constexpr uint32_t kPolynomial = 0x82F63B78;  // reflected Castagnoli polynomial

// kTables[0][b] is the CRC register after shifting in byte b; kTables[k][b] is the register after
// byte b followed by k zero bytes, so eight bytes are folded with eight independent lookups.
using Tables = std::array<std::array<uint32_t, 256>, 8>;

constexpr Tables MakeTables() {
  Tables t{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t crc = b;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) ? kPolynomial : 0);
    t[0][b] = crc;
  }
  for (size_t k = 1; k < 8; ++k) {
    for (uint32_t b = 0; b < 256; ++b) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xff];
  }
  return t;
}

constexpr Tables kTables = MakeTables();

// `reg` is the working register (the CRC inverted); so is the result.
uint32_t SliceBy8(uint32_t reg, const unsigned char* p, size_t n) {
  for (; n >= 8; p += 8, n -= 8) {
    uint32_t low;
    uint32_t high;
    std::memcpy(&low, p, 4);  // little-endian hosts only, as everywhere in Higgins
    std::memcpy(&high, p + 4, 4);
    low ^= reg;
    reg = kTables[7][low & 0xff] ^ kTables[6][(low >> 8) & 0xff] ^ kTables[5][(low >> 16) & 0xff] ^
          kTables[4][low >> 24] ^ kTables[3][high & 0xff] ^ kTables[2][(high >> 8) & 0xff] ^
          kTables[1][(high >> 16) & 0xff] ^ kTables[0][high >> 24];
  }
  for (; n > 0; ++p, --n) reg = (reg >> 8) ^ kTables[0][(reg ^ *p) & 0xff];
  return reg;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t Sse42(uint32_t reg, const unsigned char* p, size_t n) {
  uint64_t reg64 = reg;
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    reg64 = _mm_crc32_u64(reg64, word);
  }
  reg = static_cast<uint32_t>(reg64);
  for (; n > 0; ++p, --n) reg = _mm_crc32_u8(reg, *p);
  return reg;
}

bool HasSse42() {
  static const bool has = __builtin_cpu_supports("sse4.2");
  return has;
}
#endif

const unsigned char* Bytes(std::string_view data) {
  return reinterpret_cast<const unsigned char*>(data.data());
}

}  // namespace

uint32_t Crc32cExtendPortable(uint32_t crc, std::string_view data) {
  return ~SliceBy8(~crc, Bytes(data), data.size());
}

uint32_t Crc32cExtend(uint32_t crc, std::string_view data) {
#if defined(__x86_64__)
  if (HasSse42()) return ~Sse42(~crc, Bytes(data), data.size());
#endif
  return Crc32cExtendPortable(crc, data);
}

}  // namespace higgins::kafka
