#include "storage/crc32.h"

#include <zlib.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace higgins::storage {
namespace {

uint32_t ZlibCrc32(uint32_t crc, const uint8_t* data, size_t n) {
  if (n == 0) return crc;  // zlib answers 0 for a null buffer whatever `crc` is
  return static_cast<uint32_t>(crc32_z(crc, data, n));
}

#if defined(__x86_64__)

constexpr size_t kFoldBlock = 64;

// Folding constants of the bit-reflected CRC-32 polynomial (Intel's paper, appendix; the values
// Chromium's zlib uses): x^(4*128+32), x^(4*128-32), x^(128+32), x^(128-32), x^64 mod P, and P
// with its Barrett constant.
alignas(16) constexpr uint64_t kK1K2[2] = {0x0154442bd4, 0x01c6e41596};
alignas(16) constexpr uint64_t kK3K4[2] = {0x01751997d0, 0x00ccaa009e};
alignas(16) constexpr uint64_t kK5K0[2] = {0x0163cd6124, 0x0000000000};
alignas(16) constexpr uint64_t kPoly[2] = {0x01db710641, 0x01f7011641};

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): the fold step (acc, k, next)
__attribute__((target("pclmul,sse4.1"))) __m128i Fold(__m128i acc, __m128i k, __m128i next) {
  const __m128i low = _mm_clmulepi64_si128(acc, k, 0x00);
  const __m128i high = _mm_clmulepi64_si128(acc, k, 0x11);
  return _mm_xor_si128(_mm_xor_si128(high, low), next);
}

// `n` is at least kFoldBlock and a multiple of 16; `crc` is the inverted running CRC (the
// register value), and so is the result.
__attribute__((target("pclmul,sse4.1"))) uint32_t FoldCrc32(uint32_t crc, const uint8_t* buf,
                                                            size_t n) {
  auto load = [](const uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); };
  __m128i x1 = _mm_xor_si128(load(buf), _mm_cvtsi32_si128(static_cast<int>(crc)));
  __m128i x2 = load(buf + 16);
  __m128i x3 = load(buf + 32);
  __m128i x4 = load(buf + 48);
  buf += kFoldBlock;
  n -= kFoldBlock;
  __m128i k = _mm_load_si128(reinterpret_cast<const __m128i*>(kK1K2));
  for (; n >= kFoldBlock; buf += kFoldBlock, n -= kFoldBlock) {
    x1 = Fold(x1, k, load(buf));
    x2 = Fold(x2, k, load(buf + 16));
    x3 = Fold(x3, k, load(buf + 32));
    x4 = Fold(x4, k, load(buf + 48));
  }
  k = _mm_load_si128(reinterpret_cast<const __m128i*>(kK3K4));
  x1 = Fold(x1, k, x2);
  x1 = Fold(x1, k, x3);
  x1 = Fold(x1, k, x4);
  for (; n >= 16; buf += 16, n -= 16) x1 = Fold(x1, k, load(buf));

  // 128 bits to 64, then Barrett reduction to 32.
  const __m128i mask = _mm_setr_epi32(~0, 0, ~0, 0);
  __m128i x2r = _mm_clmulepi64_si128(x1, k, 0x10);
  x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2r);
  k = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(kK5K0));
  x2r = _mm_srli_si128(x1, 4);
  x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, mask), k, 0x00), x2r);
  k = _mm_load_si128(reinterpret_cast<const __m128i*>(kPoly));
  x2r = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, mask), k, 0x10), mask);
  x1 = _mm_xor_si128(x1, _mm_clmulepi64_si128(x2r, k, 0x00));
  return static_cast<uint32_t>(_mm_extract_epi32(x1, 1));
}

bool HasFoldInstructions() {
  static const bool has = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
  return has;
}

#endif

}  // namespace

uint32_t Crc32(uint32_t crc, const uint8_t* data, size_t n) {
#if defined(__x86_64__)
  if (n >= kFoldBlock && HasFoldInstructions()) {
    const size_t folded = n & ~size_t{15};
    crc = ~FoldCrc32(~crc, data, folded);
    data += folded;
    n -= folded;
  }
#endif
  return ZlibCrc32(crc, data, n);
}

}  // namespace higgins::storage
