/* Declarations shared by the SDK's sources; not part of the public API (higgins/udf.h). */
#ifndef HIGGINS_SDK_INTERNAL_H
#define HIGGINS_SDK_INTERNAL_H

#include <higgins/udf.h>

/* hg_alloc / hg_alloc_zeroed for sizes computed in 64 bits: more than linear memory can hold
 * fails (recorded) instead of wrapping around in a 32-bit size_t. */
void* hg__alloc64(uint64_t bytes, bool zeroed);

/* Grows the allocation `p` of `old_size` bytes to `new_size` bytes, in place when it is the
 * latest allocation, else by moving it. Returns the (maybe new) pointer, or NULL with the
 * failure recorded (then `p` is unchanged). */
void* hg__realloc(void* p, uint64_t old_size, uint64_t new_size);

/* Bytes of linear memory right now. */
static inline uint64_t hg__memory_bytes(void) {
  return (uint64_t)__builtin_wasm_memory_size(0) * 65536u;
}

/* Appends to the message being recorded (hg_failv builds on these). hg__error_begin returns
 * false when a failure is already recorded: the first one wins. */
bool hg__error_begin(void);
void hg__error_append(const char* text, uint32_t len);
void hg__error_append_str(const char* text);
void hg__error_append_int(int64_t v);
/* Puts `text` in front of the recorded message (to say which input it is about). */
void hg__error_prepend(const char* text);

/* Var-length types with 64-bit offsets. */
static inline bool hg__is_large(hg_type type) {
  return type == HG_LARGE_UTF8 || type == HG_LARGE_BINARY;
}

/* Bytes per value of a fixed-width column (fixed-size binary: its byte width). */
static inline uint64_t hg__value_width(hg_type type, int32_t byte_width) {
  return type == HG_FIXED_SIZE_BINARY ? (uint64_t)(uint32_t)byte_width : hg_type_width(type);
}

/* Rounds up to a multiple of 8 (the IPC alignment). */
static inline uint64_t hg__pad8(uint64_t n) { return (n + 7u) & ~(uint64_t)7u; }

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

/* Number of set bits among the first `bits` bits of an LSB-ordered bitmap. */
uint64_t hg__count_set_bits(const uint8_t* bitmap, uint64_t bits);

#endif /* HIGGINS_SDK_INTERNAL_H */
