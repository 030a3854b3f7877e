/*
 * double: a map UDF that doubles the `data` column and copies every other column unchanged.
 *
 * Schema: the derived stream has the base stream's schema. `data` must be int32, int64 or
 * float64; a null stays null. An integer that would overflow when doubled fails the batch with
 * the row named (get_errors). Example: {"id":"1","data":1} -> {"id":"1","data":2}.
 */
#include <higgins/udf.h>

static int overflow(const hg_column* data, int32_t row) {
  char row_text[HG_INT_TEXT_SIZE], value_text[HG_INT_TEXT_SIZE];
  return hg_failv("double: row ", hg_int_text(row, row_text), ": ",
                  hg_int_text(hg_as_i64(data, row), value_text), " * 2 overflows ",
                  hg_type_name(data->type), NULL);
}

/* One loop per type, so that the type is not tested on every row. Each works on the raw arrays
 * (sdk/README.md, "Performance"): the input's values, the output's values and validity bitmap,
 * all with bit/element `row` for row `row`. The fast path has no branch per row, so clang
 * vectorises it; the checked setters (hg_set_i32, hg_set_null) remain the way to write a column
 * when in doubt, and are what the fallback uses when the output cannot hold the input's nulls. */

/* Copies the input's validity to the output (all valid stays all valid). */
static void copy_validity(const hg_column* data, hg_writer* w) {
  if (data->null_count > 0) memcpy(w->validity, data->validity, ((size_t)data->length + 7) / 8);
}

/* Whether the raw arrays can be written: the output was added as nullable when the input has
 * nulls (it is, with hg_builder_add_like(..., col->nullable): a column with nulls is nullable). */
static bool raw_ok(const hg_column* data, const hg_writer* w) {
  return w->type == data->type && w->length == data->length && w->source == NULL &&
         (data->null_count == 0 || (data->validity != NULL && w->validity != NULL));
}

/* The first valid row whose value overflows when doubled (after the loop found one). */
#define HG_FIRST_OVERFLOW(ctype, data)                                          \
  do {                                                                          \
    const ctype* src_ = (const ctype*)(data)->values;                          \
    for (int32_t row = 0; row < (data)->length; ++row) {                        \
      ctype v_;                                                                 \
      if (!hg_is_null((data), row) && __builtin_mul_overflow(src_[row], 2, &v_)) { \
        return overflow((data), row);                                           \
      }                                                                         \
    }                                                                           \
  } while (0)

static int double_int32(const hg_column* data, hg_writer* w) {
  if (!raw_ok(data, w)) { /* the checked setters record the misuse */
    for (int32_t row = 0; row < data->length; ++row) {
      int32_t v;
      if (hg_is_null(data, row)) {
        hg_set_null(w, row);
      } else if (__builtin_mul_overflow(hg_i32(data, row), 2, &v)) {
        return overflow(data, row);
      } else {
        hg_set_i32(w, row, v);
      }
    }
    return 0;
  }
  const int32_t* src = (const int32_t*)data->values;
  int32_t* dst = (int32_t*)w->values;
  /* Overflow is tested on every slot, null ones included (they hold whatever the producer
   * stored); only if one overflows are the valid rows looked at. */
  uint32_t overflowed = 0;
  for (int32_t row = 0; row < data->length; ++row) {
    int32_t v = (int32_t)((uint32_t)src[row] << 1);
    overflowed |= (uint32_t)(v ^ src[row]); /* the sign changed: src * 2 overflows */
    dst[row] = v;
  }
  if (overflowed >> 31) HG_FIRST_OVERFLOW(int32_t, data);
  copy_validity(data, w);
  return 0;
}

static int double_int64(const hg_column* data, hg_writer* w) {
  if (!raw_ok(data, w)) {
    for (int32_t row = 0; row < data->length; ++row) {
      int64_t v;
      if (hg_is_null(data, row)) {
        hg_set_null(w, row);
      } else if (__builtin_mul_overflow(hg_i64(data, row), 2, &v)) {
        return overflow(data, row);
      } else {
        hg_set_i64(w, row, v);
      }
    }
    return 0;
  }
  const int64_t* src = (const int64_t*)data->values;
  int64_t* dst = (int64_t*)w->values;
  uint64_t overflowed = 0;
  for (int32_t row = 0; row < data->length; ++row) {
    int64_t v = (int64_t)((uint64_t)src[row] << 1);
    overflowed |= (uint64_t)(v ^ src[row]);
    dst[row] = v;
  }
  if (overflowed >> 63) HG_FIRST_OVERFLOW(int64_t, data);
  copy_validity(data, w);
  return 0;
}

static int double_float64(const hg_column* data, hg_writer* w) {
  if (!raw_ok(data, w)) {
    for (int32_t row = 0; row < data->length; ++row) {
      if (hg_is_null(data, row)) {
        hg_set_null(w, row);
      } else {
        hg_set_f64(w, row, hg_f64(data, row) * 2.0);
      }
    }
    return 0;
  }
  const double* src = (const double*)data->values;
  double* dst = (double*)w->values;
  for (int32_t row = 0; row < data->length; ++row) dst[row] = src[row] * 2.0;
  copy_validity(data, w);
  return 0;
}

static int double_data(const hg_batch* in, hg_builder* out) {
  const hg_column* data = hg_require_column(in, "data");
  if (data == NULL) return HG_ERROR;
  int (*double_column)(const hg_column*, hg_writer*);
  switch (data->type) {
    case HG_INT32: double_column = double_int32; break;
    case HG_INT64: double_column = double_int64; break;
    case HG_FLOAT64: double_column = double_float64; break;
    default:
      return hg_failv("double: column 'data' has type ", hg_type_name(data->type),
                      "; it must be int32, int64 or float64", NULL);
  }
  /* the output has the input's columns in the input's order */
  for (int32_t i = 0; i < in->num_columns; ++i) {
    const hg_column* col = &in->columns[i];
    if (col != data) {
      hg_builder_copy_column(out, col);
    } else if (double_column(col, hg_builder_add_like(out, col->name, col, col->nullable)) != 0) {
      return HG_ERROR;
    }
  }
  return 0;
}

HG_MAP(double_data)
