#include "higgins/bit_util.h"

namespace higgins::bit_util {

int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length) {
  int64_t count = 0;
  int64_t i = offset;
  const int64_t end = offset + length;
  while (i < end && (i & 63) != 0) count += GetBit(bits, i++);
  while (i + 64 <= end) {
    count += std::popcount(LoadLE<uint64_t>(bits + (i >> 3)));
    i += 64;
  }
  while (i < end) count += GetBit(bits, i++);
  return count;
}

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): (offset, length) in bits, as Arrow
void CopyBitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst) {
  const int64_t nbytes = BytesForBits(length);
  if ((src_offset & 7) == 0) {
    std::memcpy(dst, src + (src_offset >> 3), static_cast<size_t>(nbytes));
  } else {
    std::memset(dst, 0, static_cast<size_t>(nbytes));
    for (int64_t i = 0; i < length; ++i) {
      if (GetBit(src, src_offset + i)) SetBit(dst, i);
    }
  }
  if ((length & 7) != 0) dst[nbytes - 1] &= static_cast<uint8_t>((1u << (length & 7)) - 1);
}

}  // namespace higgins::bit_util
