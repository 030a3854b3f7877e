/* FlatBuffers reading and writing for the Arrow metadata (see flatbuf.h). WebAssembly is
 * little-endian, like FlatBuffers, so scalars are copied as they are. */
#include "flatbuf.h"


/* ----- Reading ----- */

static bool in_bounds(const hg_fb* fb, uint64_t pos, uint64_t n) {
  return pos <= fb->size && n <= fb->size - pos;
}

static uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  __builtin_memcpy(&v, p, 4);
  return v;
}

static uint16_t load_u16(const uint8_t* p) {
  uint16_t v;
  __builtin_memcpy(&v, p, 2);
  return v;
}

/* The table at `pos`: its soffset, then its vtable (size, table size, field slots). */
static int table_at(const hg_fb* fb, uint32_t pos, hg_fb_table* t) {
  if (!in_bounds(fb, pos, 4)) return -1;
  int64_t vtable = (int64_t)pos - (int32_t)load_u32(fb->buf + pos);
  if (vtable < 0 || !in_bounds(fb, (uint64_t)vtable, 4)) return -1;
  uint16_t vt_size = load_u16(fb->buf + vtable);
  uint16_t size = load_u16(fb->buf + vtable + 2);
  if (vt_size < 4 || (vt_size & 1) != 0 || !in_bounds(fb, (uint64_t)vtable, vt_size)) return -1;
  if (size < 4 || !in_bounds(fb, pos, size)) return -1;
  t->fb = fb;
  t->pos = pos;
  t->vtable = (uint32_t)vtable;
  t->vt_size = vt_size;
  t->size = size;
  return 0;
}

int hg_fb_root(const hg_fb* fb, hg_fb_table* root) {
  if (!in_bounds(fb, 0, 4)) return -1;
  return table_at(fb, load_u32(fb->buf), root);
}

/* The offset of field `id` inside the table, 0 when absent. */
static uint16_t field_offset(const hg_fb_table* t, int id) {
  uint32_t slot = 4u + 2u * (uint32_t)id;
  if (slot + 2 > t->vt_size) return 0;
  return load_u16(t->fb->buf + t->vtable + slot);
}

bool hg_fb_has(const hg_fb_table* t, int id) { return field_offset(t, id) != 0; }

/* Copies a present scalar of `n` bytes into out; 1 if absent, -1 if out of bounds. */
static int read_scalar(const hg_fb_table* t, int id, void* out, uint32_t n) {
  uint16_t off = field_offset(t, id);
  if (off == 0) return 1;
  if ((uint32_t)off + n > t->size) return -1;
  __builtin_memcpy(out, t->fb->buf + t->pos + off, n);
  return 0;
}

#define HG__DEFINE_READ(fname, ctype)                                  \
  int fname(const hg_fb_table* t, int id, ctype def, ctype* out) {     \
    int r = read_scalar(t, id, out, sizeof(ctype));                    \
    if (r > 0) *out = def;                                             \
    return r < 0 ? -1 : 0;                                             \
  }
HG__DEFINE_READ(hg_fb_u8, uint8_t)
HG__DEFINE_READ(hg_fb_i16, int16_t)
HG__DEFINE_READ(hg_fb_i32, int32_t)
HG__DEFINE_READ(hg_fb_i64, int64_t)
#undef HG__DEFINE_READ

/* Follows the reference of field `id`: the position it points to; 1 if absent, -1 if bad. */
static int follow(const hg_fb_table* t, int id, uint32_t* target) {
  uint32_t ref;
  int r = read_scalar(t, id, &ref, 4);
  if (r != 0) return r;
  uint64_t at = (uint64_t)t->pos + field_offset(t, id) + ref;
  if (!in_bounds(t->fb, at, 4)) return -1;
  *target = (uint32_t)at;
  return 0;
}

int hg_fb_table_field(const hg_fb_table* t, int id, bool optional, hg_fb_table* out) {
  uint32_t target;
  int r = follow(t, id, &target);
  if (r > 0) {
    out->pos = 0;
    return optional ? 0 : -1;
  }
  return r < 0 ? -1 : table_at(t->fb, target, out);
}

int hg_fb_vector(const hg_fb_table* t, int id, uint32_t elem_size, uint32_t* elems,
                 uint32_t* count) {
  uint32_t target;
  int r = follow(t, id, &target);
  if (r > 0) {
    *elems = 0;
    *count = 0;
    return 0;
  }
  if (r < 0) return -1;
  uint32_t n = load_u32(t->fb->buf + target);
  if (!in_bounds(t->fb, (uint64_t)target + 4, (uint64_t)n * elem_size)) return -1;
  *elems = target + 4;
  *count = n;
  return 0;
}

int hg_fb_vector_table(const hg_fb* fb, uint32_t elems, uint32_t i, hg_fb_table* out) {
  uint64_t at = (uint64_t)elems + 4u * (uint64_t)i;
  if (!in_bounds(fb, at, 4)) return -1;
  uint64_t target = at + load_u32(fb->buf + at);
  if (target > fb->size) return -1;
  return table_at(fb, (uint32_t)target, out);
}

int hg_fb_string(const hg_fb_table* t, int id, const char** text, uint32_t* len) {
  uint32_t elems, n;
  if (!hg_fb_has(t, id) || hg_fb_vector(t, id, 1, &elems, &n) != 0) return -1;
  /* the terminating NUL must be inside the buffer too */
  if (!in_bounds(t->fb, elems, (uint64_t)n + 1) || t->fb->buf[elems + n] != 0) return -1;
  *text = (const char*)t->fb->buf + elems;
  *len = n;
  return 0;
}

/* ----- Writing ----- */

void hg_fbw_init(hg_fbw* w, uint8_t* buf, uint32_t cap) {
  w->buf = buf;
  w->len = 0;
  w->cap = cap;
  w->overflow = false;
}

uint32_t hg_fbw_reserve(hg_fbw* w, uint32_t n, uint32_t align, uint32_t bias) {
  uint32_t pad = (align - (w->len + bias) % align) % align;
  if ((uint64_t)w->len + pad + n > w->cap) {
    w->overflow = true;
    return 0;
  }
  __builtin_memset(w->buf + w->len, 0, pad + n);
  uint32_t at = w->len + pad;
  w->len = at + n;
  return at;
}

void hg_fbw_put_u32(hg_fbw* w, uint32_t at, uint32_t v) {
  if (!w->overflow) __builtin_memcpy(w->buf + at, &v, 4);
}

void hg_fbw_put_i64(hg_fbw* w, uint32_t at, int64_t v) {
  if (!w->overflow) __builtin_memcpy(w->buf + at, &v, 8);
}

static void put_u16(hg_fbw* w, uint32_t at, uint16_t v) {
  if (!w->overflow) __builtin_memcpy(w->buf + at, &v, 2);
}

void hg_fbw_table_begin(hg_fbw* w, hg_fbw_table* t, int num_fields) {
  uint32_t vt_size = 4u + 2u * (uint32_t)num_fields;
  /* the vtable ends where the table starts, at a multiple of 8 */
  t->vtable = hg_fbw_reserve(w, vt_size, 8, vt_size);
  t->pos = hg_fbw_reserve(w, 4, 8, 0);
  t->num_fields = num_fields;
  put_u16(w, t->vtable, (uint16_t)vt_size);
  hg_fbw_put_u32(w, t->pos, t->pos - t->vtable); /* soffset: vtable = table - soffset */
}

/* Records field `id` at position `at` in the vtable. */
static void set_slot(hg_fbw* w, const hg_fbw_table* t, int id, uint32_t at) {
  put_u16(w, t->vtable + 4u + 2u * (uint32_t)id, (uint16_t)(at - t->pos));
}

void hg_fbw_scalar(hg_fbw* w, hg_fbw_table* t, int id, uint64_t value, uint32_t size) {
  uint32_t at = hg_fbw_reserve(w, size, size, 0);
  if (w->overflow) return;
  __builtin_memcpy(w->buf + at, &value, size); /* little-endian: the low `size` bytes */
  set_slot(w, t, id, at);
}

uint32_t hg_fbw_ref(hg_fbw* w, hg_fbw_table* t, int id) {
  uint32_t at = hg_fbw_reserve(w, 4, 4, 0);
  if (!w->overflow) set_slot(w, t, id, at);
  return at;
}

void hg_fbw_table_end(hg_fbw* w, const hg_fbw_table* t) {
  put_u16(w, t->vtable + 2, (uint16_t)(w->len - t->pos));
}

void hg_fbw_set_ref(hg_fbw* w, uint32_t at, uint32_t target) {
  hg_fbw_put_u32(w, at, target - at);
}

uint32_t hg_fbw_string(hg_fbw* w, const char* text, uint32_t len) {
  uint32_t at = hg_fbw_reserve(w, 4 + len + 1, 4, 0); /* count, bytes, NUL (zeroed) */
  if (w->overflow) return 0;
  hg_fbw_put_u32(w, at, len);
  __builtin_memcpy(w->buf + at + 4, text, len);
  return at;
}

uint32_t hg_fbw_vector(hg_fbw* w, uint32_t count, uint32_t elem_size, uint32_t elem_align) {
  uint32_t align = elem_align > 4 ? elem_align : 4;
  /* the elements (4 bytes after the count) are aligned to `align` */
  uint32_t at = hg_fbw_reserve(w, 4 + count * elem_size, align, 4);
  hg_fbw_put_u32(w, at, count);
  return at;
}
