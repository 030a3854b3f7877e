/*
 * sum: a reduce UDF keeping a running sum of `data` per partition key.
 *
 * Schema: the derived stream has the base stream's schema (or any schema with a numeric
 * `data`). run(prev, cur) returns prev with data = prev.data + cur.data, every other column
 * copied from prev. The broker emits derived offset 0 (the first base record) itself, so base
 * values 1, 2, 3 give 1, 3, 6.
 *
 * Types: prev.data is int32, int64 or float64 and decides the result's type; cur.data is any
 * integer type (or any numeric type when prev.data is float64). Nulls are skipped, as SQL's
 * SUM does: null + x = x, and null + null = null. Integer overflow fails the batch.
 */
#include <higgins/udf.h>

static int unsupported(const char* which, const hg_column* col) {
  return hg_failv("sum: ", which, ".data has type ", hg_type_name(col->type),
                  "; sum needs int32, int64 or float64 (and an integer cur.data for an integer "
                  "sum)", NULL);
}

static int overflow(const hg_column* sum, int32_t row) {
  char buf[HG_INT_TEXT_SIZE];
  return hg_failv("sum: row ", hg_int_text(row, buf), ": the sum overflows ",
                  hg_type_name(sum->type), NULL);
}

/* One row of an integer sum into w; HG_ERROR on overflow. */
static int add_integers(const hg_column* prev, const hg_column* cur, int32_t row, hg_writer* w) {
  int64_t total;
  if (__builtin_add_overflow(hg_is_null(prev, row) ? 0 : hg_as_i64(prev, row),
                             hg_is_null(cur, row) ? 0 : hg_as_i64(cur, row), &total) ||
      (cur->type == HG_UINT64 && !hg_is_null(cur, row) && hg_u64(cur, row) > INT64_MAX)) {
    return overflow(prev, row);
  }
  if (prev->type == HG_INT64) {
    hg_set_i64(w, row, total);
  } else if (total < INT32_MIN || total > INT32_MAX) {
    return overflow(prev, row);
  } else {
    hg_set_i32(w, row, (int32_t)total);
  }
  return 0;
}

static int sum_column(const hg_column* prev, const hg_column* cur, hg_builder* out) {
  bool floating = prev->type == HG_FLOAT64;
  if (!floating && prev->type != HG_INT32 && prev->type != HG_INT64) return unsupported("prev", prev);
  if (!hg_type_is_integer(cur->type) && !(floating && hg_type_is_floating(cur->type))) {
    return unsupported("cur", cur);
  }
  hg_writer* w = hg_builder_add(out, prev->name, prev->type, prev->nullable);
  for (int32_t row = 0; row < prev->length; ++row) {
    bool prev_null = hg_is_null(prev, row), cur_null = hg_is_null(cur, row);
    if (prev_null && cur_null) {
      hg_set_null(w, row);
    } else if (floating) {
      hg_set_f64(w, row, (prev_null ? 0.0 : hg_f64(prev, row)) + (cur_null ? 0.0 : hg_as_f64(cur, row)));
    } else if (add_integers(prev, cur, row, w) != 0) {
      return HG_ERROR;
    }
  }
  return 0;
}

static int running_sum(const hg_batch* prev, const hg_batch* cur, hg_builder* out) {
  const hg_column* prev_data = hg_require_column(prev, "data");
  const hg_column* cur_data = hg_require_column(cur, "data");
  if (prev_data == NULL || cur_data == NULL) return HG_ERROR;
  for (int32_t i = 0; i < prev->num_columns; ++i) {
    const hg_column* col = &prev->columns[i];
    if (col == prev_data) {
      if (sum_column(prev_data, cur_data, out) != 0) return HG_ERROR;
    } else {
      hg_builder_copy_column(out, col);
    }
  }
  return 0;
}

HG_REDUCE(running_sum)
