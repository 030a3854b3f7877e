#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace higgins::bit_util {

/// Bytes needed to hold `bits` bits.
constexpr int64_t BytesForBits(int64_t bits) { return (bits + 7) / 8; }

/// Rounds `n` up to a multiple of `factor` (a power of two).
constexpr int64_t RoundUp(int64_t n, int64_t factor) { return (n + factor - 1) & ~(factor - 1); }

/// Arrow bit order (LSB first): bit i is bit (i % 8) of byte (i / 8).
inline bool GetBit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }
inline void SetBit(uint8_t* bits, int64_t i) { bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7)); }
inline void ClearBit(uint8_t* bits, int64_t i) {
  bits[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7)));
}
inline void SetBitTo(uint8_t* bits, int64_t i, bool v) { v ? SetBit(bits, i) : ClearBit(bits, i); }

/// Number of set bits in [offset, offset + length).
int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length);

/// Copies `length` bits starting at bit `src_offset` of `src` to bit 0.. of `dst` (which must hold
/// BytesForBits(length) bytes; trailing bits of the last byte are zeroed).
void CopyBitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst);

/// Little-endian loads and stores from unaligned memory (Arrow data and IPC framing are LE).
template <typename T>
inline T LoadLE(const void* p) {
  static_assert(std::endian::native == std::endian::little, "big-endian hosts are not supported");
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T>
inline void StoreLE(void* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}
inline uint32_t LoadBE32(const void* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return __builtin_bswap32(v);
}
inline void StoreBE32(void* p, uint32_t v) {
  v = __builtin_bswap32(v);
  std::memcpy(p, &v, 4);
}

}  // namespace higgins::bit_util
