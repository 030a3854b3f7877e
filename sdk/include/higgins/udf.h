/*
 * higgins/udf.h: the Higgins UDF SDK for C (freestanding C11, wasm32, no libc).
 *
 * A UDF is a WebAssembly module the broker runs on Arrow record batches (docs/udf-abi.md). This
 * SDK implements the module side of that ABI: the exports `_malloc`, `_reset` and `get_errors`,
 * a reader of the input Arrow IPC stream into typed column views (hg_batch, hg_column), and a
 * builder of the output batch (hg_builder, hg_writer) that writes the result IPC stream. A UDF
 * is one function plus a macro that defines the `run` export:
 *
 *   #include <higgins/udf.h>
 *   static int double_data(const hg_batch* in, hg_builder* out) { ... return 0; }
 *   HG_MAP(double_data)
 *
 * Build: compile the UDF together with every .c file of sdk/src into one module; the exact
 * clang-14 command line is in sdk/README.md (CMake: higgins_add_udf).
 *
 * Memory: every allocation comes from a bump allocator that the host resets (`_reset`) before
 * each batch, so nothing is ever freed and nothing outlives a batch: input views, writers and
 * the result are valid until the next batch. Never keep pointers in globals across calls.
 *
 * Errors: functions that can fail record a message (the first failure of a call wins, later
 * ones are usually its consequences) and return -1, NULL or an inert writer; `run` then
 * returns 0 and the host reads the message through `get_errors`.
 */
#ifndef HIGGINS_UDF_H
#define HIGGINS_UDF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#define HG__EXTERN_C extern "C"
#else
#define HG__EXTERN_C
#endif

/* ---------------------------------------------------------------------------------------------
 * Types
 * ------------------------------------------------------------------------------------------- */

/* The Arrow types the SDK reads, copies and writes. Any other type in an input schema (list,
 * struct, timestamp, dictionary-encoded, ...) makes the input unreadable: run fails with a
 * message naming the column and its type. */
typedef enum hg_type {
  HG_TYPE_INVALID = 0,
  HG_INT8, HG_INT16, HG_INT32, HG_INT64,
  HG_UINT8, HG_UINT16, HG_UINT32, HG_UINT64,
  HG_FLOAT16,     /* IEEE half precision, accessed as its uint16_t bits */
  HG_FLOAT32, HG_FLOAT64,
  HG_BOOL,        /* bit-packed */
  HG_UTF8,        /* int32 offsets + UTF-8 bytes */
  HG_BINARY,      /* int32 offsets + bytes */
  HG_LARGE_UTF8,  /* int64 offsets + UTF-8 bytes */
  HG_LARGE_BINARY,/* int64 offsets + bytes */
  HG_DATE32,      /* int32 days since 1970-01-01 */
  HG_DATE64,      /* int64 milliseconds since 1970-01-01 */
  HG_DECIMAL128,  /* 16-byte little-endian two's complement unscaled value; precision, scale */
  HG_TIMESTAMP,   /* int64 count of time_unit since 1970-01-01T00:00:00Z; optional timezone */
  HG_TIME32,      /* int32 count of time_unit (seconds or milliseconds) since midnight */
  HG_TIME64,      /* int64 count of time_unit (microseconds or nanoseconds) since midnight */
  HG_DURATION,    /* int64 count of time_unit */
  HG_FIXED_SIZE_BINARY, /* byte_width bytes per value */
  HG_NULL         /* no values: every row is null */
} hg_type;

/* The unit of timestamp, time32, time64 and duration columns (Arrow's TimeUnit). */
typedef enum hg_time_unit {
  HG_SECOND = 0,
  HG_MILLISECOND = 1,
  HG_MICROSECOND = 2,
  HG_NANOSECOND = 3
} hg_time_unit;

/* A 128-bit decimal's unscaled value (value = unscaled * 10^-scale). */
typedef struct hg_i128 {
  uint64_t lo;
  int64_t hi;
} hg_i128;

/* One input column: a read-only view into the input's memory. Use the accessors below. */
typedef struct hg_column {
  const char* name;          /* NUL-terminated */
  uint32_t name_len;
  hg_type type;
  bool nullable;             /* as the schema declares it */
  int32_t decimal_precision; /* HG_DECIMAL128 only */
  int32_t decimal_scale;     /* HG_DECIMAL128 only */
  hg_time_unit time_unit;    /* HG_TIMESTAMP, HG_TIME32, HG_TIME64, HG_DURATION */
  const char* timezone;      /* HG_TIMESTAMP: NUL-terminated time zone, or NULL for none */
  int32_t byte_width;        /* HG_FIXED_SIZE_BINARY */
  int32_t length;            /* rows; equals the batch's num_rows */
  int32_t null_count;
  const uint8_t* validity;   /* 1 bit per row, 1 = valid; NULL when null_count is 0 (for
                                HG_NULL columns: an all-zero bitmap) */
  const uint8_t* values;     /* fixed-width values, bool bits, or the offsets of var-length */
  const uint8_t* data;       /* the bytes of utf8/binary columns, else NULL */
  uint64_t data_size;
} hg_column;

/* One input batch: its columns in schema order. */
typedef struct hg_batch {
  int32_t num_rows;
  int32_t num_columns;
  const hg_column* columns;
} hg_batch;

/* A column being written into the result. Fixed-width and bool columns are set by row in any
 * order (rows never set are 0 / false, and valid); utf8/binary columns are appended row after
 * row. Every writer belongs to one hg_builder. */
typedef struct hg_writer {
  const char* name;          /* must stay valid until hg_builder_finish */
  hg_type type;
  bool nullable;
  int32_t decimal_precision;
  int32_t decimal_scale;
  hg_time_unit time_unit;
  const char* timezone;      /* NULL or NUL-terminated; must stay valid until finish */
  int32_t byte_width;
  int32_t length;            /* rows (the builder's num_rows) */
  uint8_t* validity;         /* nullable columns: 1 bit per row, all valid to start with */
  uint8_t* values;           /* fixed-width values, bool bits, or var-length offsets */
  uint8_t* data;             /* var-length bytes */
  uint64_t data_len;
  uint64_t data_cap;
  int32_t appended;          /* var-length: rows appended so far */
  bool failed;               /* a misuse was recorded (wrong type, row out of range, ...) */
  const hg_column* source;   /* set by hg_builder_copy_column: the buffers come from there */
} hg_writer;

/* The result batch under construction. */
typedef struct hg_builder {
  int32_t num_rows;
  int32_t num_columns;
  int32_t capacity;
  hg_writer** columns;
  bool failed;
} hg_builder;

/* A map function: reads `in`, adds the derived schema's columns to `out` in order (out has
 * in->num_rows rows). Returns 0, or non-zero after recording a failure with hg_fail. */
typedef int (*hg_map_fn)(const hg_batch* in, hg_builder* out);

/* A reduce function: `prev` has the derived stream's schema, `cur` the base stream's; row i of
 * both belongs to the same partition key. Adds the derived schema's columns to `out`. */
typedef int (*hg_reduce_fn)(const hg_batch* prev, const hg_batch* cur, hg_builder* out);

/* ---------------------------------------------------------------------------------------------
 * Defining the module's `run` export
 * ------------------------------------------------------------------------------------------- */

#define HG_EXPORT(name) __attribute__((export_name(name)))

/* Defines `run(i32 in) -> i32 out` calling `fn` (an hg_map_fn). */
#define HG_MAP(fn) \
  HG__EXTERN_C HG_EXPORT("run") void* run(const void* in) { return hg_run_map(in, fn); }

/* Defines `run(i32 prev, i32 cur) -> i32 out` calling `fn` (an hg_reduce_fn). */
#define HG_REDUCE(fn)                                            \
  HG__EXTERN_C HG_EXPORT("run") void* run(const void* prev, const void* cur) { \
    return hg_run_reduce(prev, cur, fn);                         \
  }

/* What HG_MAP / HG_REDUCE call: clear the error, read the framed input(s), give the function a
 * builder of num_rows rows, finish it. Return the framed result, or NULL (0) on failure. A
 * reduce's two inputs must have the same number of rows. */
void* hg_run_map(const void* in, hg_map_fn fn);
void* hg_run_reduce(const void* prev, const void* cur, hg_reduce_fn fn);

/* ---------------------------------------------------------------------------------------------
 * Errors (the text `get_errors` returns)
 * ------------------------------------------------------------------------------------------- */

#define HG_ERROR (-1)

/* Records `message` as the failure of this call, unless one is recorded already. Returns
 * HG_ERROR so that `return hg_fail("...");` reads naturally. The text is kept up to 4 KiB. */
int hg_fail(const char* message);

/* The same with the message made of several parts, the list ending with NULL:
 *   hg_failv("column '", col->name, "' has type ", hg_type_name(col->type), NULL); */
int hg_failv(const char* part, ...) __attribute__((sentinel));

/* Whether a failure is recorded; and forgetting it (hg_run_* and _reset do this). */
bool hg_failed(void);
void hg_clear_error(void);

/* Decimal text of v in buf (at least HG_INT_TEXT_SIZE bytes), for messages; returns buf. */
#define HG_INT_TEXT_SIZE 24
const char* hg_int_text(int64_t v, char* buf);

/* ---------------------------------------------------------------------------------------------
 * Reading the input
 * ------------------------------------------------------------------------------------------- */

/* Reads a framed input (8-byte big-endian length, then an Arrow IPC stream with a schema and at
 * most one record batch) into `out`. Returns 0, or HG_ERROR with the reason recorded
 * (malformed stream, unsupported type, compressed body, ...). */
int hg_batch_read(hg_batch* out, const void* framed);

/* The column named `name`, or NULL if there is none. */
const hg_column* hg_column_by_name(const hg_batch* batch, const char* name);

/* The same, but a missing column is a failure: "the input has no column 'data' (its columns:
 * id, value)". */
const hg_column* hg_require_column(const hg_batch* batch, const char* name);

/* The Arrow name of a type ("int32", "utf8", "decimal128", ...). */
const char* hg_type_name(hg_type type);

/* Type classes. */
bool hg_type_is_integer(hg_type type);   /* int8..uint64 */
bool hg_type_is_floating(hg_type type);  /* float16, float32, float64 */
bool hg_type_is_var_length(hg_type type);/* utf8, binary, large_utf8, large_binary */
/* Bytes per value of a fixed-width type (0 for bool, null, var-length and fixed-size binary,
 * whose width is the column's byte_width). */
uint32_t hg_type_width(hg_type type);

/* Fails with "column 'x' has type utf8; expected int32" unless col->type == type. */
int hg_expect_type(const hg_column* col, hg_type type);

/* Whether row is null. Like every accessor, it does not check that row < col->length. */
static inline bool hg_is_null(const hg_column* col, int32_t row) {
  return col->validity != NULL &&
         ((col->validity[(uint32_t)row >> 3] >> ((uint32_t)row & 7)) & 1) == 0;
}

/* Typed value accessors: hg_i8 hg_i16 hg_i32 hg_i64 hg_u8 hg_u16 hg_u32 hg_u64 hg_f32 hg_f64
 * hg_f16_bits hg_date32 hg_date64 hg_decimal128 hg_timestamp hg_time32 hg_time64 hg_duration
 * (col, row). The column must have that exact type (check col->type first, or use hg_as_i64 /
 * hg_as_f64); a null row reads as whatever the producer stored, usually 0. */
#define HG__DEFINE_GET(fname, ctype)                                            \
  static inline ctype fname(const hg_column* col, int32_t row) {                \
    ctype v;                                                                    \
    __builtin_memcpy(&v, col->values + (size_t)(uint32_t)row * sizeof(ctype), sizeof(ctype)); \
    return v;                                                                   \
  }
HG__DEFINE_GET(hg_i8, int8_t)
HG__DEFINE_GET(hg_i16, int16_t)
HG__DEFINE_GET(hg_i32, int32_t)
HG__DEFINE_GET(hg_i64, int64_t)
HG__DEFINE_GET(hg_u8, uint8_t)
HG__DEFINE_GET(hg_u16, uint16_t)
HG__DEFINE_GET(hg_u32, uint32_t)
HG__DEFINE_GET(hg_u64, uint64_t)
HG__DEFINE_GET(hg_f32, float)
HG__DEFINE_GET(hg_f64, double)
HG__DEFINE_GET(hg_f16_bits, uint16_t)
HG__DEFINE_GET(hg_date32, int32_t)
HG__DEFINE_GET(hg_date64, int64_t)
HG__DEFINE_GET(hg_decimal128, hg_i128)
HG__DEFINE_GET(hg_timestamp, int64_t)
HG__DEFINE_GET(hg_time32, int32_t)
HG__DEFINE_GET(hg_time64, int64_t)
HG__DEFINE_GET(hg_duration, int64_t)
#undef HG__DEFINE_GET

/* A fixed-size binary value: col->byte_width bytes. */
static inline const uint8_t* hg_fixed_binary(const hg_column* col, int32_t row) {
  return col->values + (size_t)(uint32_t)row * (uint32_t)col->byte_width;
}

/* A bool column's value. */
static inline bool hg_bool(const hg_column* col, int32_t row) {
  return ((col->values[(uint32_t)row >> 3] >> ((uint32_t)row & 7)) & 1) != 0;
}

/* Any integer, date, timestamp, time or duration column's value as int64 (uint64 values above
 * INT64_MAX wrap); 0 for other types. */
int64_t hg_as_i64(const hg_column* col, int32_t row);

/* Any integer or floating-point column's value as a double; 0 for other types. */
double hg_as_f64(const hg_column* col, int32_t row);

/* The bytes of a utf8, binary, large_utf8 or large_binary value (not NUL-terminated) and their
 * length in *len. A null row gives its stored bytes (usually none). */
static inline const uint8_t* hg_binary(const hg_column* col, int32_t row, uint32_t* len) {
  uint64_t begin, end;
  if (col->type == HG_LARGE_UTF8 || col->type == HG_LARGE_BINARY) {
    int64_t o[2];
    __builtin_memcpy(o, col->values + (size_t)(uint32_t)row * 8, 16);
    begin = (uint64_t)o[0];
    end = (uint64_t)o[1];
  } else {
    int32_t o[2];
    __builtin_memcpy(o, col->values + (size_t)(uint32_t)row * 4, 8);
    begin = (uint32_t)o[0];
    end = (uint32_t)o[1];
  }
  *len = (uint32_t)(end - begin);
  return col->data + begin;
}

static inline const char* hg_utf8(const hg_column* col, int32_t row, uint32_t* len) {
  return (const char*)hg_binary(col, row, len);
}

/* ---------------------------------------------------------------------------------------------
 * Building the result
 * ------------------------------------------------------------------------------------------- */

/* Starts a result of num_rows rows (hg_run_* do this for you). Returns 0 or HG_ERROR. */
int hg_builder_init(hg_builder* b, int32_t num_rows);

/* Adds a column of `type` at the end of the result's schema and returns its writer. `name`
 * must stay valid until hg_builder_finish (a literal, or an input column's name). Never returns
 * NULL: on failure (out of memory, an unwritable type) it records the failure and returns an
 * inert writer that ignores every write, and hg_builder_finish fails. */
hg_writer* hg_builder_add(hg_builder* b, const char* name, hg_type type, bool nullable);

/* The parametric types. hg_builder_add gives them defaults: decimal128(38, 0), timestamp in
 * milliseconds without time zone, time32 in milliseconds, time64 in microseconds, duration in
 * milliseconds; fixed-size binary has no default width and needs its own function. A null
 * column (HG_NULL) is all nulls and has nothing to write. */
hg_writer* hg_builder_add_decimal128(hg_builder* b, const char* name, int32_t precision,
                                     int32_t scale, bool nullable);
hg_writer* hg_builder_add_timestamp(hg_builder* b, const char* name, hg_time_unit unit,
                                    const char* timezone, bool nullable);
hg_writer* hg_builder_add_time(hg_builder* b, const char* name, hg_type time32_or_time64,
                               hg_time_unit unit, bool nullable);
hg_writer* hg_builder_add_duration(hg_builder* b, const char* name, hg_time_unit unit,
                                   bool nullable);
hg_writer* hg_builder_add_fixed_size_binary(hg_builder* b, const char* name, int32_t byte_width,
                                            bool nullable);

/* A writable column with the type of input column `like` (parameters included), to compute
 * new values of the same type: hg_builder_add_like(out, col->name, col, col->nullable). */
hg_writer* hg_builder_add_like(hg_builder* b, const char* name, const hg_column* like,
                               bool nullable);

/* Adds `col` unchanged (name, type, nullability, values, nulls): the common case for key
 * columns. No copy is made until hg_builder_finish. The returned writer must not be written. */
const hg_writer* hg_builder_copy_column(hg_builder* b, const hg_column* col);
/* The same under another name. */
const hg_writer* hg_builder_copy_column_as(hg_builder* b, const hg_column* col, const char* name);

/* Writes the result: an 8-byte big-endian length then an Arrow IPC stream (schema, one record
 * batch, end-of-stream). Returns the pointer `run` returns, or NULL on failure (a writer was
 * misused, a var-length column has fewer rows than num_rows, out of memory). */
void* hg_builder_finish(hg_builder* b);

/* Shorthands for hg_builder_add. */
#define HG__DEFINE_ADD(fname, tag)                                                     \
  static inline hg_writer* fname(hg_builder* b, const char* name, bool nullable) {     \
    return hg_builder_add(b, name, tag, nullable);                                     \
  }
HG__DEFINE_ADD(hg_builder_add_i8, HG_INT8)
HG__DEFINE_ADD(hg_builder_add_i16, HG_INT16)
HG__DEFINE_ADD(hg_builder_add_i32, HG_INT32)
HG__DEFINE_ADD(hg_builder_add_i64, HG_INT64)
HG__DEFINE_ADD(hg_builder_add_u8, HG_UINT8)
HG__DEFINE_ADD(hg_builder_add_u16, HG_UINT16)
HG__DEFINE_ADD(hg_builder_add_u32, HG_UINT32)
HG__DEFINE_ADD(hg_builder_add_u64, HG_UINT64)
HG__DEFINE_ADD(hg_builder_add_f16, HG_FLOAT16)
HG__DEFINE_ADD(hg_builder_add_f32, HG_FLOAT32)
HG__DEFINE_ADD(hg_builder_add_f64, HG_FLOAT64)
HG__DEFINE_ADD(hg_builder_add_bool, HG_BOOL)
HG__DEFINE_ADD(hg_builder_add_utf8, HG_UTF8)
HG__DEFINE_ADD(hg_builder_add_binary, HG_BINARY)
HG__DEFINE_ADD(hg_builder_add_large_utf8, HG_LARGE_UTF8)
HG__DEFINE_ADD(hg_builder_add_large_binary, HG_LARGE_BINARY)
HG__DEFINE_ADD(hg_builder_add_date32, HG_DATE32)
HG__DEFINE_ADD(hg_builder_add_date64, HG_DATE64)
#undef HG__DEFINE_ADD

/* Records a misuse of `w` (called by the setters; the write is ignored). */
void hg__writer_misuse(hg_writer* w, int32_t row, const char* what);

static inline bool hg__writable(hg_writer* w, int32_t row, hg_type type, const char* what) {
  if (__builtin_expect(w->type != type || (uint32_t)row >= (uint32_t)w->length ||
                           w->source != NULL, 0)) {
    hg__writer_misuse(w, row, what);
    return false;
  }
  return true;
}

static inline void hg__mark_valid(hg_writer* w, int32_t row) {
  if (w->validity != NULL) w->validity[(uint32_t)row >> 3] |= (uint8_t)(1u << ((uint32_t)row & 7));
}

/* Typed setters: hg_set_i8 hg_set_i16 hg_set_i32 hg_set_i64 hg_set_u8 hg_set_u16 hg_set_u32
 * hg_set_u64 hg_set_f32 hg_set_f64 hg_set_f16_bits hg_set_date32 hg_set_date64
 * hg_set_decimal128 hg_set_timestamp hg_set_time32 hg_set_time64 hg_set_duration
 * (w, row, value). The writer must have that exact type and 0 <= row <
 * num_rows; otherwise the write is ignored and hg_builder_finish fails naming the misuse.
 * Setting a value makes the row valid. */
#define HG__DEFINE_SET(fname, ctype, tag)                                                 \
  static inline void fname(hg_writer* w, int32_t row, ctype v) {                          \
    if (!hg__writable(w, row, tag, #fname)) return;                                       \
    __builtin_memcpy(w->values + (size_t)(uint32_t)row * sizeof(ctype), &v, sizeof(ctype)); \
    hg__mark_valid(w, row);                                                               \
  }
HG__DEFINE_SET(hg_set_i8, int8_t, HG_INT8)
HG__DEFINE_SET(hg_set_i16, int16_t, HG_INT16)
HG__DEFINE_SET(hg_set_i32, int32_t, HG_INT32)
HG__DEFINE_SET(hg_set_i64, int64_t, HG_INT64)
HG__DEFINE_SET(hg_set_u8, uint8_t, HG_UINT8)
HG__DEFINE_SET(hg_set_u16, uint16_t, HG_UINT16)
HG__DEFINE_SET(hg_set_u32, uint32_t, HG_UINT32)
HG__DEFINE_SET(hg_set_u64, uint64_t, HG_UINT64)
HG__DEFINE_SET(hg_set_f32, float, HG_FLOAT32)
HG__DEFINE_SET(hg_set_f64, double, HG_FLOAT64)
HG__DEFINE_SET(hg_set_f16_bits, uint16_t, HG_FLOAT16)
HG__DEFINE_SET(hg_set_date32, int32_t, HG_DATE32)
HG__DEFINE_SET(hg_set_date64, int64_t, HG_DATE64)
HG__DEFINE_SET(hg_set_decimal128, hg_i128, HG_DECIMAL128)
HG__DEFINE_SET(hg_set_timestamp, int64_t, HG_TIMESTAMP)
HG__DEFINE_SET(hg_set_time32, int32_t, HG_TIME32)
HG__DEFINE_SET(hg_set_time64, int64_t, HG_TIME64)
HG__DEFINE_SET(hg_set_duration, int64_t, HG_DURATION)
#undef HG__DEFINE_SET

/* Sets a fixed-size binary value: w->byte_width bytes from `bytes`. */
static inline void hg_set_fixed_binary(hg_writer* w, int32_t row, const void* bytes) {
  if (!hg__writable(w, row, HG_FIXED_SIZE_BINARY, "hg_set_fixed_binary")) return;
  __builtin_memcpy(w->values + (size_t)(uint32_t)row * (uint32_t)w->byte_width, bytes,
                   (size_t)(uint32_t)w->byte_width);
  hg__mark_valid(w, row);
}

static inline void hg_set_bool(hg_writer* w, int32_t row, bool v) {
  if (!hg__writable(w, row, HG_BOOL, "hg_set_bool")) return;
  uint8_t bit = (uint8_t)(1u << ((uint32_t)row & 7));
  if (v) {
    w->values[(uint32_t)row >> 3] |= bit;
  } else {
    w->values[(uint32_t)row >> 3] &= (uint8_t)~bit;
  }
  hg__mark_valid(w, row);
}

/* Makes a row of a fixed-width or bool column null. The column must be nullable. */
void hg_set_null(hg_writer* w, int32_t row);

/* Appends the next row of a utf8 / binary / large_utf8 / large_binary column: `len` bytes at
 * `bytes` (utf8 must be valid UTF-8; it is not checked), a NUL-terminated string, or a null
 * (nullable columns only). Return 0 or HG_ERROR (out of memory, more rows than num_rows, wrong
 * column type). */
int hg_append_binary(hg_writer* w, const void* bytes, uint32_t len);
int hg_append_utf8(hg_writer* w, const char* text, uint32_t len);
int hg_append_str(hg_writer* w, const char* text);
int hg_append_null(hg_writer* w);

/* Reserves room for `bytes` more bytes of var-length data, to avoid regrowing. */
int hg_reserve_data(hg_writer* w, uint64_t bytes);

/* ---------------------------------------------------------------------------------------------
 * Memory
 * ------------------------------------------------------------------------------------------- */

/* `bytes` bytes from the bump allocator (16-byte aligned, uninitialised), or NULL with the
 * failure recorded. Freed all at once by the host's `_reset` before the next batch. */
void* hg_alloc(size_t bytes);
/* The same, zero-filled. */
void* hg_alloc_zeroed(size_t bytes);

/* The exports of the ABI, defined by the SDK (sdk/src/memory.c, sdk/src/errors.c). */
HG_EXPORT("_malloc") void* _malloc(int32_t size);
HG_EXPORT("_reset") void _reset(void);
HG_EXPORT("get_errors") const void* get_errors(void);

/* clang calls these for struct copies and large initialisers; the SDK defines them. */
void* memcpy(void* dst, const void* src, size_t n);
void* memmove(void* dst, const void* src, size_t n);
void* memset(void* dst, int c, size_t n);
int memcmp(const void* a, const void* b, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* HIGGINS_UDF_H */
