/* The result builder: columns added in schema order, each with its own buffers laid out as in
 * the Arrow columnar format ("Physical Memory Layout"), ready to be copied into the IPC body by
 * hg_builder_finish (writer.c). */
#include "alloc.h"
#include "error_record.h"
#include "ipc_layout.h"

#define HG_INITIAL_COLUMNS 16
/* Starting bytes of var-length data per row, before any hg_reserve_data. */
#define HG_INITIAL_BYTES_PER_ROW 8u

/* Returned when a column cannot be added: every write to it is refused (its length is 0), and
 * the builder is marked failed. */
static hg_writer inert_writer = {.name = "", .type = HG_TYPE_INVALID};

int hg_builder_init(hg_builder* b, int32_t num_rows) {
  __builtin_memset(b, 0, sizeof *b);
  if (num_rows < 0) return hg_fail("hg_builder_init: negative number of rows");
  b->num_rows = num_rows;
  b->columns = (hg_writer**)hg_alloc(sizeof(hg_writer*) * HG_INITIAL_COLUMNS);
  if (b->columns == NULL) {
    b->failed = true;
    return HG_ERROR;
  }
  b->capacity = HG_INITIAL_COLUMNS;
  return 0;
}

/* Appends a zeroed writer to the builder; NULL (builder failed) when out of memory. */
static hg_writer* push_writer(hg_builder* b, const char* name, hg_type type, bool nullable) {
  if (b->columns == NULL) return NULL; /* hg_builder_init failed or was not called */
  if (b->num_columns == b->capacity) {
    size_t old_size = sizeof(hg_writer*) * (size_t)b->capacity;
    hg_writer** grown = (hg_writer**)hg__realloc(b->columns, old_size, old_size * 2);
    if (grown == NULL) return NULL;
    b->columns = grown;
    b->capacity *= 2;
  }
  hg_writer* w = (hg_writer*)hg_alloc_zeroed(sizeof(hg_writer));
  if (w == NULL) return NULL;
  w->name = name;
  w->type = type;
  w->nullable = nullable;
  w->length = b->num_rows;
  b->columns[b->num_columns++] = w;
  return w;
}

static hg_writer* add_failed(hg_builder* b) {
  b->failed = true;
  return &inert_writer;
}

/* Allocates the buffers of a new column: validity all valid, values zeroed. */
static int allocate_buffers(hg_writer* w) {
  uint64_t n = (uint64_t)w->length;
  uint64_t bitmap_bytes = (n + 7) / 8;
  if (w->type == HG_NULL) return 0; /* no buffers: every row is null */
  if (w->nullable) {
    w->validity = (uint8_t*)hg__alloc64(bitmap_bytes, false);
    if (w->validity == NULL) return HG_ERROR;
    __builtin_memset(w->validity, 0xFF, (size_t)bitmap_bytes);
  }
  uint64_t values_bytes;
  if (w->type == HG_BOOL) {
    values_bytes = bitmap_bytes;
  } else if (hg_type_is_var_length(w->type)) {
    values_bytes = (n + 1) * (hg__is_large(w->type) ? 8 : 4); /* offsets; offsets[0] = 0 */
  } else {
    values_bytes = n * hg__value_width(w->type, w->byte_width);
  }
  w->values = (uint8_t*)hg__alloc64(values_bytes, true);
  if (w->values == NULL) return HG_ERROR;
  if (hg_type_is_var_length(w->type)) return hg_reserve_data(w, n * HG_INITIAL_BYTES_PER_ROW);
  return 0;
}

/* Why a column's type and parameters cannot be written, or NULL if they can. */
static const char* invalid_type(const hg_column* t) {
  switch (t->type) {
    case HG_DECIMAL128:
      return t->decimal_precision < 1 || t->decimal_precision > 38
                 ? "decimal128 needs a precision of 1 to 38" : NULL;
    case HG_TIMESTAMP: case HG_DURATION:
      return t->time_unit < HG_SECOND || t->time_unit > HG_NANOSECOND ? "invalid time unit" : NULL;
    case HG_TIME32:
      return t->time_unit != HG_SECOND && t->time_unit != HG_MILLISECOND
                 ? "time32 is in seconds or milliseconds" : NULL;
    case HG_TIME64:
      return t->time_unit != HG_MICROSECOND && t->time_unit != HG_NANOSECOND
                 ? "time64 is in microseconds or nanoseconds" : NULL;
    case HG_FIXED_SIZE_BINARY:
      return t->byte_width < 1 ? "fixed_size_binary needs a byte width of 1 or more "
                                 "(hg_builder_add_fixed_size_binary)" : NULL;
    default:
      return t->type <= HG_TYPE_INVALID || t->type > HG_NULL ? "invalid type" : NULL;
  }
}

/* Adds a column with the type and type parameters of `t` (its other fields are ignored). */
static hg_writer* add_typed(hg_builder* b, const char* name, const hg_column* t, bool nullable) {
  const char* why = invalid_type(t);
  if (why != NULL) {
    hg_failv("cannot add column '", name, "': ", why, NULL);
    return add_failed(b);
  }
  hg_writer* w = push_writer(b, name, t->type, nullable || t->type == HG_NULL);
  if (w == NULL) return add_failed(b);
  w->decimal_precision = t->decimal_precision;
  w->decimal_scale = t->decimal_scale;
  w->time_unit = t->time_unit;
  w->timezone = t->timezone;
  w->byte_width = t->byte_width;
  if (allocate_buffers(w) != 0) return add_failed(b);
  return w;
}

hg_writer* hg_builder_add_like(hg_builder* b, const char* name, const hg_column* like,
                               bool nullable) {
  return add_typed(b, name, like, nullable);
}

hg_writer* hg_builder_add(hg_builder* b, const char* name, hg_type type, bool nullable) {
  hg_column t = {.type = type, .decimal_precision = 38, .time_unit = HG_MILLISECOND};
  if (type == HG_TIME64) t.time_unit = HG_MICROSECOND;
  return add_typed(b, name, &t, nullable);
}

hg_writer* hg_builder_add_decimal128(hg_builder* b, const char* name, int32_t precision,
                                     int32_t scale, bool nullable) {
  hg_column t = {.type = HG_DECIMAL128, .decimal_precision = precision, .decimal_scale = scale};
  return add_typed(b, name, &t, nullable);
}

hg_writer* hg_builder_add_timestamp(hg_builder* b, const char* name, hg_time_unit unit,
                                    const char* timezone, bool nullable) {
  hg_column t = {.type = HG_TIMESTAMP, .time_unit = unit, .timezone = timezone};
  return add_typed(b, name, &t, nullable);
}

hg_writer* hg_builder_add_time(hg_builder* b, const char* name, hg_type time32_or_time64,
                               hg_time_unit unit, bool nullable) {
  if (time32_or_time64 != HG_TIME32 && time32_or_time64 != HG_TIME64) {
    hg_failv("cannot add column '", name, "': hg_builder_add_time takes HG_TIME32 or HG_TIME64",
             NULL);
    return add_failed(b);
  }
  hg_column t = {.type = time32_or_time64, .time_unit = unit};
  return add_typed(b, name, &t, nullable);
}

hg_writer* hg_builder_add_duration(hg_builder* b, const char* name, hg_time_unit unit,
                                   bool nullable) {
  hg_column t = {.type = HG_DURATION, .time_unit = unit};
  return add_typed(b, name, &t, nullable);
}

hg_writer* hg_builder_add_fixed_size_binary(hg_builder* b, const char* name, int32_t byte_width,
                                            bool nullable) {
  hg_column t = {.type = HG_FIXED_SIZE_BINARY, .byte_width = byte_width};
  return add_typed(b, name, &t, nullable);
}

const hg_writer* hg_builder_copy_column_as(hg_builder* b, const hg_column* col,
                                           const char* name) {
  if (col->length != b->num_rows) {
    char rows[HG_INT_TEXT_SIZE], have[HG_INT_TEXT_SIZE];
    hg_failv("hg_builder_copy_column: column '", col->name, "' has ",
             hg_int_text(col->length, have), " rows but the result has ",
             hg_int_text(b->num_rows, rows), NULL);
    return add_failed(b);
  }
  hg_writer* w = push_writer(b, name, col->type, col->nullable);
  if (w == NULL) return add_failed(b);
  w->decimal_precision = col->decimal_precision;
  w->decimal_scale = col->decimal_scale;
  w->time_unit = col->time_unit;
  w->timezone = col->timezone;
  w->byte_width = col->byte_width;
  w->source = col;
  w->appended = col->length;
  return w;
}

const hg_writer* hg_builder_copy_column(hg_builder* b, const hg_column* col) {
  return hg_builder_copy_column_as(b, col, col->name);
}

void hg__writer_misuse(hg_writer* w, int32_t row, const char* what) {
  w->failed = true;
  if (w == &inert_writer || !hg__error_begin()) return; /* the cause is recorded already */
  hg__error_append_str("misuse: ");
  hg__error_append_str(what);
  hg__error_append_str(" on column '");
  hg__error_append_str(w->name);
  hg__error_append_str("' of type ");
  hg__error_append_str(hg_type_name(w->type));
  hg__error_append_str(" with ");
  hg__error_append_int(w->length);
  hg__error_append_str(" rows");
  if (row >= 0) {
    hg__error_append_str(", row ");
    hg__error_append_int(row);
  }
  if (w->source != NULL) hg__error_append_str(" (a copied column cannot be written)");
}

void hg_set_null(hg_writer* w, int32_t row) {
  if (w->type == HG_NULL && w->source == NULL && (uint32_t)row < (uint32_t)w->length) return;
  if (w->source != NULL || (uint32_t)row >= (uint32_t)w->length ||
      hg_type_is_var_length(w->type)) {
    hg__writer_misuse(w, row, hg_type_is_var_length(w->type)
                                  ? "hg_set_null (use hg_append_null for var-length columns)"
                                  : "hg_set_null");
    return;
  }
  if (w->validity == NULL) {
    hg__writer_misuse(w, row, "hg_set_null (the column is not nullable)");
    return;
  }
  w->validity[(uint32_t)row >> 3] &= (uint8_t)~(1u << ((uint32_t)row & 7));
}

/* ----- Var-length columns ----- */

int hg_reserve_data(hg_writer* w, uint64_t bytes) {
  if (w->source != NULL || !hg_type_is_var_length(w->type)) {
    hg__writer_misuse(w, -1, "hg_reserve_data");
    return HG_ERROR;
  }
  if (w->data_len + bytes <= w->data_cap) return 0;
  uint64_t cap = w->data_cap * 2;
  if (cap < w->data_len + bytes) cap = w->data_len + bytes;
  if (cap < 64) cap = 64;
  uint8_t* grown = (uint8_t*)hg__realloc(w->data, w->data_cap, cap);
  if (grown == NULL) {
    w->failed = true;
    return HG_ERROR;
  }
  w->data = grown;
  w->data_cap = cap;
  return 0;
}

/* Checks that `w` takes another appended row; records the misuse otherwise. */
static bool appendable(hg_writer* w, const char* what) {
  if (w->source != NULL || !hg_type_is_var_length(w->type) || w->appended >= w->length) {
    hg__writer_misuse(w, w->appended, what);
    return false;
  }
  return true;
}

/* Ends row `appended` at the current data length. */
static void close_row(hg_writer* w) {
  uint32_t next = (uint32_t)w->appended + 1;
  if (hg__is_large(w->type)) {
    int64_t end = (int64_t)w->data_len;
    __builtin_memcpy(w->values + 8u * next, &end, 8);
  } else {
    int32_t end = (int32_t)w->data_len;
    __builtin_memcpy(w->values + 4u * next, &end, 4);
  }
  ++w->appended;
}

int hg_append_binary(hg_writer* w, const void* bytes, uint32_t len) {
  if (!appendable(w, "hg_append")) return HG_ERROR;
  if (!hg__is_large(w->type) && w->data_len + len > INT32_MAX) {
    w->failed = true;
    return hg_failv("column '", w->name, "' holds more than 2 GiB of data; use a large_ type",
                    NULL);
  }
  if (hg_reserve_data(w, len) != 0) return HG_ERROR;
  __builtin_memcpy(w->data + w->data_len, bytes, len);
  w->data_len += len;
  hg__mark_valid(w, w->appended);
  close_row(w);
  return 0;
}

int hg_append_utf8(hg_writer* w, const char* text, uint32_t len) {
  return hg_append_binary(w, text, len);
}

int hg_append_str(hg_writer* w, const char* text) {
  uint32_t len = 0;
  while (text[len] != '\0') ++len;
  return hg_append_binary(w, text, len);
}

int hg_append_null(hg_writer* w) {
  if (!appendable(w, "hg_append_null")) return HG_ERROR;
  if (w->validity == NULL) {
    hg__writer_misuse(w, w->appended, "hg_append_null (the column is not nullable)");
    return HG_ERROR;
  }
  w->validity[(uint32_t)w->appended >> 3] &= (uint8_t)~(1u << ((uint32_t)w->appended & 7));
  close_row(w);
  return 0;
}
