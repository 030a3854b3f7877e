/*
 * A minimal FlatBuffers reader and writer, enough for Arrow's IPC metadata. Binary format
 * (FlatBuffers "Internals" page): little-endian scalars aligned to their size; a buffer starts
 * with a uoffset (u32) to the root table; a table starts with an soffset (i32) such that its
 * vtable is at table - soffset; a vtable is u16 vtable size, u16 table size, then one u16 per
 * field id: the field's offset from the table start, 0 when absent (the reader then uses the
 * schema default); references to tables, vectors and strings are u32 offsets from the field to
 * a *later* position; a vector is a u32 count then its elements; a string is a byte vector
 * followed by a NUL.
 *
 * The reader checks every position against the buffer's bounds (it reads untrusted input) and
 * reports malformed input by returning -1. The writer builds front to back: a table is written
 * first with placeholder references, and the objects they refer to are written after it and
 * patched in (hg_fbw_set_ref), which keeps every uoffset pointing forward as the format needs.
 */
#ifndef HIGGINS_SDK_FLATBUF_H
#define HIGGINS_SDK_FLATBUF_H

#include <stdbool.h>
#include <stdint.h>

/* ----- Reading ----- */

typedef struct hg_fb {
  const uint8_t* buf;
  uint32_t size;
} hg_fb;

typedef struct hg_fb_table {
  const hg_fb* fb;
  uint32_t pos;       /* of the table (its soffset) */
  uint32_t vtable;    /* position of the vtable */
  uint16_t vt_size;   /* bytes of the vtable */
  uint16_t size;      /* bytes of the table's inline part */
} hg_fb_table;

/* The root table. */
int hg_fb_root(const hg_fb* fb, hg_fb_table* root);

/* Whether field `id` is present. */
bool hg_fb_has(const hg_fb_table* t, int id);

/* Scalars, or `def` when absent. Return -1 when present but out of the table's bounds. */
int hg_fb_u8(const hg_fb_table* t, int id, uint8_t def, uint8_t* out);
int hg_fb_i16(const hg_fb_table* t, int id, int16_t def, int16_t* out);
int hg_fb_i32(const hg_fb_table* t, int id, int32_t def, int32_t* out);
int hg_fb_i64(const hg_fb_table* t, int id, int64_t def, int64_t* out);

/* A sub-table (absent: -1 unless `optional`, then 0 with out->pos == 0). */
int hg_fb_table_field(const hg_fb_table* t, int id, bool optional, hg_fb_table* out);

/* A vector: position of its first element and its count, checked to hold count elements of
 * elem_size bytes. An absent vector reads as empty. */
int hg_fb_vector(const hg_fb_table* t, int id, uint32_t elem_size, uint32_t* elems,
                 uint32_t* count);

/* Element i of a vector of tables whose elements start at `elems`. */
int hg_fb_vector_table(const hg_fb* fb, uint32_t elems, uint32_t i, hg_fb_table* out);

/* A string: pointer to its bytes (NUL-terminated, checked) and its length. */
int hg_fb_string(const hg_fb_table* t, int id, const char** text, uint32_t* len);

/* ----- Writing ----- */

typedef struct hg_fbw {
  uint8_t* buf;       /* must be 8-byte aligned: alignment is computed from buffer positions */
  uint32_t len;
  uint32_t cap;
  bool overflow;      /* a write did not fit: the buffer is unusable */
} hg_fbw;

typedef struct hg_fbw_table {
  uint32_t vtable;    /* position of the vtable */
  uint32_t pos;       /* position of the table */
  int num_fields;
} hg_fbw_table;

void hg_fbw_init(hg_fbw* w, uint8_t* buf, uint32_t cap);

/* Reserves `n` zeroed bytes after padding so that (position + `bias`) is a multiple of `align`;
 * returns the position. */
uint32_t hg_fbw_reserve(hg_fbw* w, uint32_t n, uint32_t align, uint32_t bias);

/* Starts a table with field ids 0 .. num_fields-1; the table is 8-byte aligned and its vtable
 * placed just before it. */
void hg_fbw_table_begin(hg_fbw* w, hg_fbw_table* t, int num_fields);
/* Appends a scalar field, aligned to its size (1, 2, 4 or 8 bytes). */
void hg_fbw_scalar(hg_fbw* w, hg_fbw_table* t, int id, uint64_t value, uint32_t size);
/* Appends a reference field and returns its position, to be patched with hg_fbw_set_ref. */
uint32_t hg_fbw_ref(hg_fbw* w, hg_fbw_table* t, int id);
/* Ends a table: records its inline size in the vtable. */
void hg_fbw_table_end(hg_fbw* w, const hg_fbw_table* t);

/* Points the reference at position `at` to the object at `target` (target > at). */
void hg_fbw_set_ref(hg_fbw* w, uint32_t at, uint32_t target);

/* A string; returns its position. */
uint32_t hg_fbw_string(hg_fbw* w, const char* text, uint32_t len);
/* A vector of `count` elements of elem_size bytes aligned to elem_align, zero-filled; returns
 * its position (the count); the elements start 4 bytes later. */
uint32_t hg_fbw_vector(hg_fbw* w, uint32_t count, uint32_t elem_size, uint32_t elem_align);

/* Stores little-endian integers at a position. */
void hg_fbw_put_u32(hg_fbw* w, uint32_t at, uint32_t v);
void hg_fbw_put_i64(hg_fbw* w, uint32_t at, int64_t v);

#endif /* HIGGINS_SDK_FLATBUF_H */
