/*
 * add_totals: the reduce of the flights demo (examples/flights/README.md).
 *
 * prev has the reduce's schema `origin_delays` (origin, flights int64, total_delay int64); cur has
 * the base's `flight_classified`, whose `flights` (1) and `total_delay` (the delay) make it a
 * one-flight summary. run(prev, cur) returns prev with every int64 column added to cur's column of
 * the same name and the other columns (the partition key) copied, so per origin the latest record
 * holds the number of flights and their total delay in minutes. Nulls count as 0 unless both sides
 * are null (SQL's SUM). Overflow fails the record, which then goes to `origin_delays/errors`.
 */
#include <higgins/udf.h>

static int add_column(const hg_column* prev, const hg_column* cur, hg_builder* out) {
  if (hg_expect_type(cur, HG_INT64) != 0) return HG_ERROR;
  hg_writer* sum = hg_builder_add_i64(out, prev->name, prev->nullable);
  for (int32_t row = 0; row < prev->length; ++row) {
    const bool prev_null = hg_is_null(prev, row), cur_null = hg_is_null(cur, row);
    if (prev_null && cur_null) {
      hg_set_null(sum, row);
      continue;
    }
    int64_t total;
    if (__builtin_add_overflow(prev_null ? 0 : hg_i64(prev, row), cur_null ? 0 : hg_i64(cur, row),
                               &total)) {
      return hg_failv("add_totals: column '", prev->name, "' overflows int64", NULL);
    }
    hg_set_i64(sum, row, total);
  }
  return 0;
}

static int add_totals(const hg_batch* prev, const hg_batch* cur, hg_builder* out) {
  for (int32_t c = 0; c < prev->num_columns; ++c) {
    const hg_column* col = &prev->columns[c];
    const hg_column* other = col->type == HG_INT64 ? hg_column_by_name(cur, col->name) : NULL;
    if (other == NULL) {
      hg_builder_copy_column(out, col);
    } else if (add_column(col, other, out) != 0) {
      return HG_ERROR;
    }
  }
  return 0;
}

HG_REDUCE(add_totals)
