/* The module's memory: the bump allocator behind `_malloc` and hg_alloc, `_reset`, and the
 * memcpy family that clang expects from a C library (docs/udf-abi.md, "Memory"). */
#include "alloc.h"
#include "error_record.h"

/* The end of the static data and the stack, provided by wasm-ld: the heap starts there. */
extern unsigned char __heap_base;

#define HG_ALLOC_ALIGN 16u
#define HG_PAGE 65536u
/* Memory grows by at least this many pages at a time, to keep memory.grow calls rare. */
#define HG_MIN_GROW_PAGES 16u

/* The first free byte; 0 until the first allocation. */
static uintptr_t heap_top;

static uintptr_t heap_start(void) {
  return ((uintptr_t)&__heap_base + HG_ALLOC_ALIGN - 1) & ~(uintptr_t)(HG_ALLOC_ALIGN - 1);
}

/* Makes linear memory at least `end` bytes long; false when it cannot grow (the host's cap). */
static bool ensure_memory(uint64_t end) {
  uint64_t have = hg__memory_bytes();
  if (end <= have) return true;
  uint64_t needed = (end - have + HG_PAGE - 1) / HG_PAGE;
  if (needed < HG_MIN_GROW_PAGES &&
      __builtin_wasm_memory_grow(0, HG_MIN_GROW_PAGES) != (size_t)-1) {
    return true;
  }
  return __builtin_wasm_memory_grow(0, (size_t)needed) != (size_t)-1;
}

/* `size` bytes aligned to 16, or NULL. */
static void* bump(uint64_t size) {
  if (heap_top == 0) heap_top = heap_start();
  uint64_t p = ((uint64_t)heap_top + HG_ALLOC_ALIGN - 1) & ~(uint64_t)(HG_ALLOC_ALIGN - 1);
  uint64_t end = p + size;
  if (end > UINT32_MAX || !ensure_memory(end)) return NULL;
  heap_top = (uintptr_t)end;
  return (void*)(uintptr_t)p;
}

static void out_of_memory(uint64_t bytes) {
  if (!hg__error_begin()) return;
  hg__error_append_str("out of memory: cannot allocate ");
  hg__error_append_int((int64_t)bytes);
  hg__error_append_str(" bytes (linear memory is ");
  hg__error_append_int((int64_t)hg__memory_bytes());
  hg__error_append_str(" bytes and cannot grow further)");
}

HG_EXPORT("_malloc") void* _malloc(int32_t size) {
  if (size < 0) return NULL;
  return bump((uint64_t)size);
}

HG_EXPORT("_reset") void _reset(void) {
  heap_top = heap_start();
  hg_clear_error();
}

void* hg__alloc64(uint64_t bytes, bool zeroed) {
  void* p = bump(bytes);
  if (p == NULL) {
    out_of_memory(bytes);
    return NULL;
  }
  if (zeroed) __builtin_memset(p, 0, (size_t)bytes); /* bytes fit: bump checked them */
  return p;
}

void* hg_alloc(size_t bytes) { return hg__alloc64(bytes, false); }

void* hg_alloc_zeroed(size_t bytes) { return hg__alloc64(bytes, true); }

void* hg__realloc(void* p, uint64_t old_size, uint64_t new_size) {
  uint64_t at = (uintptr_t)p;
  if (p != NULL && at + old_size == heap_top) {
    uint64_t end = at + new_size;
    if (end > UINT32_MAX || !ensure_memory(end)) {
      out_of_memory(new_size);
      return NULL;
    }
    heap_top = (uintptr_t)end;
    return p;
  }
  void* q = hg__alloc64(new_size, false);
  if (q != NULL && old_size > 0) {
    __builtin_memcpy(q, p, (size_t)(old_size < new_size ? old_size : new_size));
  }
  return q;
}

/* ----- The C library functions clang emits calls to ----- */

#if defined(__wasm_bulk_memory__)
/* With -mbulk-memory these builtins become the memory.copy / memory.fill instructions. */
void* memcpy(void* dst, const void* src, size_t n) {
  __builtin_memcpy(dst, src, n);
  return dst;
}

void* memmove(void* dst, const void* src, size_t n) {
  __builtin_memmove(dst, src, n);
  return dst;
}

void* memset(void* dst, int c, size_t n) {
  __builtin_memset(dst, c, n);
  return dst;
}
#else
/* Plain loops; no_builtin keeps clang from turning them back into calls to themselves. */
__attribute__((no_builtin)) void* memcpy(void* dst, const void* src, size_t n) {
  uint8_t* d = (uint8_t*)dst;
  const uint8_t* s = (const uint8_t*)src;
  for (; n >= 8; n -= 8, d += 8, s += 8) {
    uint64_t v;
    __builtin_memcpy(&v, s, 8);
    __builtin_memcpy(d, &v, 8);
  }
  while (n-- > 0) *d++ = *s++;
  return dst;
}

__attribute__((no_builtin)) void* memmove(void* dst, const void* src, size_t n) {
  uint8_t* d = (uint8_t*)dst;
  const uint8_t* s = (const uint8_t*)src;
  if (d <= s || d >= s + n) return memcpy(dst, src, n);
  while (n-- > 0) d[n] = s[n];
  return dst;
}

__attribute__((no_builtin)) void* memset(void* dst, int c, size_t n) {
  uint8_t* d = (uint8_t*)dst;
  while (n-- > 0) *d++ = (uint8_t)c;
  return dst;
}
#endif

__attribute__((no_builtin)) int memcmp(const void* a, const void* b, size_t n) {
  const uint8_t* x = (const uint8_t*)a;
  const uint8_t* y = (const uint8_t*)b;
  for (size_t i = 0; i < n; ++i) {
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return 0;
}
