/* Buffer layout rules of Arrow columns as the IPC format lays them out (types.c). Not part of the
 * public API (higgins/udf.h). */
#ifndef HIGGINS_SDK_IPC_LAYOUT_H
#define HIGGINS_SDK_IPC_LAYOUT_H

#include <higgins/udf.h>

/* Var-length types with 64-bit offsets. */
static inline bool hg__is_large(hg_type type) {
  return type == HG_LARGE_UTF8 || type == HG_LARGE_BINARY;
}

/* Bytes per value of a fixed-width column (fixed-size binary: its byte width). */
static inline uint64_t hg__value_width(hg_type type, int32_t byte_width) {
  return type == HG_FIXED_SIZE_BINARY ? (uint64_t)(uint32_t)byte_width : hg_type_width(type);
}

/* Rounds up to a multiple of 8 (the IPC alignment). */
static inline uint64_t hg__pad8(uint64_t n) {
  return (n + 7u) & ~(uint64_t)7u;
}

/* Number of set bits among the first `bits` bits of an LSB-ordered bitmap. */
uint64_t hg__count_set_bits(const uint8_t* bitmap, uint64_t bits);

#endif /* HIGGINS_SDK_IPC_LAYOUT_H */
