/* The 8-byte big-endian length prefix of the ABI's framing (header only). Not part of the public
 * API (higgins/udf.h). */
#ifndef HIGGINS_SDK_FRAMING_H
#define HIGGINS_SDK_FRAMING_H

#include <stdint.h>

/* Big-endian u64 of the ABI's framing. */
static inline uint64_t hg__load_be64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return v;
}

static inline void hg__store_be64(uint8_t* p, uint64_t v) {
  for (int i = 7; i >= 0; --i) {
    p[i] = (uint8_t)v;
    v >>= 8;
  }
}

#endif /* HIGGINS_SDK_FRAMING_H */
