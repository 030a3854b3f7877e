/*
 * computed: a map UDF that adds a computed column.
 *
 * Base schema: any fields, one of them a numeric `data` (int8..uint64, float16/32/64).
 * Derived schema: the base fields, in order, followed by `data_squared`, a nullable float64:
 *
 *   [schema.reading]              id = "string", data = "int32"
 *   [schema.reading_squared]      id = "string", data = "int32", data_squared = "float64"
 *
 * data_squared = data * data computed in double precision (exact up to 2^53 for integers),
 * null where data is null. Example: {"id":"a","data":3} -> {"id":"a","data":3,"data_squared":9}.
 */
#include <higgins/udf.h>

static int add_square(const hg_batch* in, hg_builder* out) {
  const hg_column* data = hg_require_column(in, "data");
  if (data == NULL) return HG_ERROR;
  if (!hg_type_is_integer(data->type) && !hg_type_is_floating(data->type)) {
    return hg_failv("computed: column 'data' has type ", hg_type_name(data->type),
                    "; it must be an integer or floating-point type", NULL);
  }
  for (int32_t i = 0; i < in->num_columns; ++i) hg_builder_copy_column(out, &in->columns[i]);
  hg_writer* squared = hg_builder_add_f64(out, "data_squared", true);
  for (int32_t row = 0; row < in->num_rows; ++row) {
    if (hg_is_null(data, row)) {
      hg_set_null(squared, row);
    } else {
      double v = hg_as_f64(data, row);
      hg_set_f64(squared, row, v * v);
    }
  }
  return 0;
}

HG_MAP(add_square)
