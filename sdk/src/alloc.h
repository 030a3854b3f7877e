/* Allocation in linear memory beyond the public hg_alloc (memory.c). Not part of the public API
 * (higgins/udf.h). */
#ifndef HIGGINS_SDK_ALLOC_H
#define HIGGINS_SDK_ALLOC_H

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

#endif /* HIGGINS_SDK_ALLOC_H */
