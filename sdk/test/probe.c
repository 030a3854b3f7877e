/*
 * probe: a map UDF for sdk.test.mjs that exercises the SDK's API and its failure paths. The
 * input's first column is `case` (utf8) and its first value picks what to do; the other
 * columns are the data of that case.
 */
#include <higgins/udf.h>

static bool equals(const char* a, uint32_t a_len, const char* b) {
  uint32_t i = 0;
  for (; i < a_len; ++i) {
    if (a[i] != b[i]) return false;
  }
  return b[i] == '\0';
}

/* One value of `c` into `w` through the typed setters. */
static void set_value(hg_writer* w, const hg_column* c, int32_t r) {
  switch (c->type) {
    case HG_INT8: hg_set_i8(w, r, hg_i8(c, r)); break;
    case HG_INT16: hg_set_i16(w, r, hg_i16(c, r)); break;
    case HG_INT32: hg_set_i32(w, r, hg_i32(c, r)); break;
    case HG_INT64: hg_set_i64(w, r, hg_i64(c, r)); break;
    case HG_UINT8: hg_set_u8(w, r, hg_u8(c, r)); break;
    case HG_UINT16: hg_set_u16(w, r, hg_u16(c, r)); break;
    case HG_UINT32: hg_set_u32(w, r, hg_u32(c, r)); break;
    case HG_UINT64: hg_set_u64(w, r, hg_u64(c, r)); break;
    case HG_FLOAT16: hg_set_f16_bits(w, r, hg_f16_bits(c, r)); break;
    case HG_FLOAT32: hg_set_f32(w, r, hg_f32(c, r)); break;
    case HG_FLOAT64: hg_set_f64(w, r, hg_f64(c, r)); break;
    case HG_BOOL: hg_set_bool(w, r, hg_bool(c, r)); break;
    case HG_DATE32: hg_set_date32(w, r, hg_date32(c, r)); break;
    case HG_DATE64: hg_set_date64(w, r, hg_date64(c, r)); break;
    case HG_DECIMAL128: hg_set_decimal128(w, r, hg_decimal128(c, r)); break;
    case HG_TIMESTAMP: hg_set_timestamp(w, r, hg_timestamp(c, r)); break;
    case HG_TIME32: hg_set_time32(w, r, hg_time32(c, r)); break;
    case HG_TIME64: hg_set_time64(w, r, hg_time64(c, r)); break;
    case HG_DURATION: hg_set_duration(w, r, hg_duration(c, r)); break;
    case HG_FIXED_SIZE_BINARY: hg_set_fixed_binary(w, r, hg_fixed_binary(c, r)); break;
    default: break;
  }
}

/* Every column written again through hg_builder_add_like and the setters/appenders. */
static int rebuild(const hg_batch* in, hg_builder* out) {
  for (int32_t i = 0; i < in->num_columns; ++i) {
    const hg_column* c = &in->columns[i];
    hg_writer* w = hg_builder_add_like(out, c->name, c, c->nullable);
    for (int32_t r = 0; r < c->length; ++r) {
      if (hg_type_is_var_length(c->type)) {
        uint32_t len;
        const uint8_t* bytes = hg_binary(c, r, &len);
        if (hg_is_null(c, r) ? hg_append_null(w) : hg_append_binary(w, bytes, len)) return HG_ERROR;
      } else if (hg_is_null(c, r)) {
        hg_set_null(w, r);
      } else {
        set_value(w, c, r);
      }
    }
  }
  return 0;
}

/* One column of each parametric type, with fixed values in every row. */
static int parametric(const hg_batch* in, hg_builder* out) {
  hg_writer* ts = hg_builder_add_timestamp(out, "ts", HG_MICROSECOND, "UTC", false);
  hg_writer* t32 = hg_builder_add_time(out, "t32", HG_TIME32, HG_SECOND, true);
  hg_writer* t64 = hg_builder_add_time(out, "t64", HG_TIME64, HG_NANOSECOND, true);
  hg_writer* dur = hg_builder_add_duration(out, "dur", HG_SECOND, true);
  hg_writer* fsb = hg_builder_add_fixed_size_binary(out, "fsb", 4, true);
  hg_writer* dec = hg_builder_add_decimal128(out, "dec", 5, 2, true);
  hg_builder_add(out, "nothing", HG_NULL, true);
  hg_writer* flag = hg_builder_add_bool(out, "flag", false);
  hg_writer* text = hg_builder_add_large_utf8(out, "text", true);
  for (int32_t r = 0; r < in->num_rows; ++r) {
    hg_set_timestamp(ts, r, 1700000000000000 + r);
    hg_set_time32(t32, r, 3600 + r);
    hg_set_time64(t64, r, 1000000000LL * r);
    hg_set_duration(dur, r, -r);
    hg_set_fixed_binary(fsb, r, "abcd");
    hg_set_decimal128(dec, r, (hg_i128){.lo = (uint64_t)(12345 + r), .hi = 0});
    hg_set_bool(flag, r, r % 2 == 0);
    if (hg_append_str(text, r % 3 == 0 ? "Zürich" : "") != 0) return HG_ERROR;
  }
  if (in->num_rows > 0) hg_set_null(dec, 0);
  return 0;
}

/* The raw-array loop of sdk/README.md ("Performance"): int32 `data` doubled without per-row
 * checks, nulls copied as a bitmap. */
static int raw_double(const hg_batch* in, hg_builder* out) {
  const hg_column* data = hg_require_column(in, "data");
  if (data == NULL || hg_expect_type(data, HG_INT32) != 0) return HG_ERROR;
  hg_writer* w = hg_builder_add_i32(out, "data", true);
  if (w->values == NULL) return HG_ERROR; /* the inert writer: the failure is recorded */
  const int32_t* src = (const int32_t*)data->values;
  int32_t* dst = (int32_t*)w->values;
  for (int32_t row = 0; row < in->num_rows; ++row) dst[row] = src[row] * 2;
  if (data->validity != NULL) memcpy(w->validity, data->validity, ((size_t)in->num_rows + 7) / 8);
  return 0;
}

static int misuse(const hg_batch* in, hg_builder* out, const char* which, uint32_t len) {
  if (equals(which, len, "set_wrong_type")) {
    hg_set_i32(hg_builder_add_i64(out, "x", true), 0, 1);
  } else if (equals(which, len, "row_out_of_range")) {
    hg_set_i32(hg_builder_add_i32(out, "x", true), in->num_rows, 1);
  } else if (equals(which, len, "missing_rows")) {
    hg_append_str(hg_builder_add_utf8(out, "s", true), "only one");
  } else if (equals(which, len, "null_in_non_nullable")) {
    hg_set_null(hg_builder_add_f64(out, "x", false), 0);
  } else if (equals(which, len, "write_copy")) {
    hg_writer* copy = (hg_writer*)hg_builder_copy_column(out, &in->columns[0]);
    hg_append_str(copy, "no");
  } else if (equals(which, len, "bad_type")) {
    hg_set_i32(hg_builder_add(out, "x", HG_FIXED_SIZE_BINARY, true), 0, 1);
  }
  return 0;
}

static int probe(const hg_batch* in, hg_builder* out) {
  const hg_column* which = hg_require_column(in, "case");
  if (which == NULL || which->type != HG_UTF8 || in->num_rows == 0) {
    return hg_fail("probe: the first column must be a utf8 `case` with one row or more");
  }
  uint32_t len;
  const char* name = hg_utf8(which, 0, &len);
  if (equals(name, len, "rebuild")) return rebuild(in, out);
  if (equals(name, len, "parametric")) return parametric(in, out);
  if (equals(name, len, "raw_double")) return raw_double(in, out);
  if (equals(name, len, "rename")) {
    hg_builder_copy_column_as(out, which, "kind");
    return 0;
  }
  if (equals(name, len, "silent_failure")) return 7;
  if (equals(name, len, "long_error")) {
    static char text[10001];
    for (int i = 0; i < 10000; ++i) text[i] = "é"[i % 2]; /* 5000 two-byte characters */
    return hg_fail(text);
  }
  if (equals(name, len, "out_of_memory")) return hg_alloc(0xFFFF0000u) == NULL ? HG_ERROR : 0;
  return misuse(in, out, name, len);
}

HG_MAP(probe)
