/*
 * delay_class: the map of the flights demo (examples/flights/README.md).
 *
 * Base schema `flight` (date, delay int32 minutes, distance, origin, destination). Derived schema
 * `flight_classified`: the base columns in order, then
 *   delay_class  utf8   "on_time" when delay < 15 minutes (the US DOT's definition of on time),
 *                       "late" for 15 to 59 minutes, "very_late" for 60 minutes or more;
 *   flights      int64  1: each classified flight counts as one flight;
 *   total_delay  int64  delay, widened.
 * `flights` and `total_delay` make each record a one-flight summary, which is what the reduce
 * `origin_delays` adds up (a reduce's first record is its partition's first base record copied by
 * name, so the base must already have the reduce's fields). A null delay gives a null class and a
 * null total_delay.
 *
 * Example: {"delay":66,"origin":"DTW",...} -> {...,"delay_class":"very_late","flights":1,
 * "total_delay":66}.
 */
#include <higgins/udf.h>

static const char* class_of(int32_t delay_minutes) {
  if (delay_minutes < 15) return "on_time";
  if (delay_minutes < 60) return "late";
  return "very_late";
}

static int classify(const hg_batch* in, hg_builder* out) {
  const hg_column* delay = hg_require_column(in, "delay");
  if (delay == NULL || hg_expect_type(delay, HG_INT32) != 0) return HG_ERROR;
  for (int32_t c = 0; c < in->num_columns; ++c) hg_builder_copy_column(out, &in->columns[c]);
  hg_writer* delay_class = hg_builder_add_utf8(out, "delay_class", true);
  hg_writer* flights = hg_builder_add_i64(out, "flights", true);
  hg_writer* total_delay = hg_builder_add_i64(out, "total_delay", true);
  for (int32_t row = 0; row < in->num_rows; ++row) {
    hg_set_i64(flights, row, 1);
    if (hg_is_null(delay, row)) {
      if (hg_append_null(delay_class) != 0) return HG_ERROR;
      hg_set_null(total_delay, row);
      continue;
    }
    const int32_t minutes = hg_i32(delay, row);
    if (hg_append_str(delay_class, class_of(minutes)) != 0) return HG_ERROR;
    hg_set_i64(total_delay, row, minutes);
  }
  return 0;
}

HG_MAP(classify)
