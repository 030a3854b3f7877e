/* Type names and classes, column lookup and the converting accessors. */
#include "error_record.h"
#include "ipc_layout.h"

const char* hg_type_name(hg_type type) {
  switch (type) {
    case HG_INT8: return "int8";
    case HG_INT16: return "int16";
    case HG_INT32: return "int32";
    case HG_INT64: return "int64";
    case HG_UINT8: return "uint8";
    case HG_UINT16: return "uint16";
    case HG_UINT32: return "uint32";
    case HG_UINT64: return "uint64";
    case HG_FLOAT16: return "float16";
    case HG_FLOAT32: return "float32";
    case HG_FLOAT64: return "float64";
    case HG_BOOL: return "bool";
    case HG_UTF8: return "utf8";
    case HG_BINARY: return "binary";
    case HG_LARGE_UTF8: return "large_utf8";
    case HG_LARGE_BINARY: return "large_binary";
    case HG_DATE32: return "date32";
    case HG_DATE64: return "date64";
    case HG_DECIMAL128: return "decimal128";
    case HG_TIMESTAMP: return "timestamp";
    case HG_TIME32: return "time32";
    case HG_TIME64: return "time64";
    case HG_DURATION: return "duration";
    case HG_FIXED_SIZE_BINARY: return "fixed_size_binary";
    case HG_NULL: return "null";
    case HG_TYPE_INVALID: break;
  }
  return "invalid";
}

bool hg_type_is_integer(hg_type type) { return type >= HG_INT8 && type <= HG_UINT64; }

bool hg_type_is_floating(hg_type type) { return type >= HG_FLOAT16 && type <= HG_FLOAT64; }

bool hg_type_is_var_length(hg_type type) {
  return type == HG_UTF8 || type == HG_BINARY || type == HG_LARGE_UTF8 ||
         type == HG_LARGE_BINARY;
}

uint32_t hg_type_width(hg_type type) {
  switch (type) {
    case HG_INT8: case HG_UINT8: return 1;
    case HG_INT16: case HG_UINT16: case HG_FLOAT16: return 2;
    case HG_INT32: case HG_UINT32: case HG_FLOAT32: case HG_DATE32: case HG_TIME32: return 4;
    case HG_INT64: case HG_UINT64: case HG_FLOAT64: case HG_DATE64: case HG_TIMESTAMP:
    case HG_TIME64: case HG_DURATION: return 8;
    case HG_DECIMAL128: return 16;
    default: return 0;
  }
}

int hg_expect_type(const hg_column* col, hg_type type) {
  if (col->type == type) return 0;
  return hg_failv("column '", col->name, "' has type ", hg_type_name(col->type), "; expected ",
                  hg_type_name(type), NULL);
}

static bool name_equals(const hg_column* col, const char* name) {
  uint32_t i = 0;
  for (; i < col->name_len; ++i) {
    if (name[i] != col->name[i]) return false; /* also stops at name's NUL */
  }
  return name[i] == '\0';
}

const hg_column* hg_column_by_name(const hg_batch* batch, const char* name) {
  for (int32_t i = 0; i < batch->num_columns; ++i) {
    if (name_equals(&batch->columns[i], name)) return &batch->columns[i];
  }
  return NULL;
}

const hg_column* hg_require_column(const hg_batch* batch, const char* name) {
  const hg_column* col = hg_column_by_name(batch, name);
  if (col != NULL || !hg__error_begin()) return col;
  hg__error_append_str("the input has no column '");
  hg__error_append_str(name);
  hg__error_append_str("' (its columns: ");
  for (int32_t i = 0; i < batch->num_columns; ++i) {
    if (i > 0) hg__error_append_str(", ");
    hg__error_append(batch->columns[i].name, batch->columns[i].name_len);
  }
  if (batch->num_columns == 0) hg__error_append_str("none");
  hg__error_append_str(")");
  return NULL;
}

int64_t hg_as_i64(const hg_column* col, int32_t row) {
  switch (col->type) {
    case HG_INT8: return hg_i8(col, row);
    case HG_INT16: return hg_i16(col, row);
    case HG_INT32: case HG_DATE32: case HG_TIME32: return hg_i32(col, row);
    case HG_INT64: case HG_DATE64: case HG_TIMESTAMP: case HG_TIME64: case HG_DURATION:
      return hg_i64(col, row);
    case HG_UINT8: return hg_u8(col, row);
    case HG_UINT16: return hg_u16(col, row);
    case HG_UINT32: return hg_u32(col, row);
    case HG_UINT64: return (int64_t)hg_u64(col, row);
    default: return 0;
  }
}

/* IEEE 754 binary16 to double. */
static double half_to_double(uint16_t h) {
  int exponent = (h >> 10) & 0x1F;
  double mantissa = (double)(h & 0x3FF);
  double v;
  if (exponent == 0) {
    v = mantissa / 1024.0 / 16384.0; /* subnormal: m * 2^-24 */
  } else if (exponent == 31) {
    v = mantissa == 0 ? __builtin_inf() : __builtin_nan("");
  } else {
    v = (1.0 + mantissa / 1024.0);
    for (; exponent > 15; --exponent) v *= 2.0;
    for (; exponent < 15; ++exponent) v *= 0.5;
  }
  return (h & 0x8000) ? -v : v;
}

double hg_as_f64(const hg_column* col, int32_t row) {
  switch (col->type) {
    case HG_FLOAT16: return half_to_double(hg_f16_bits(col, row));
    case HG_FLOAT32: return hg_f32(col, row);
    case HG_FLOAT64: return hg_f64(col, row);
    case HG_UINT64: return (double)hg_u64(col, row);
    default: return hg_type_is_integer(col->type) ? (double)hg_as_i64(col, row) : 0.0;
  }
}

uint64_t hg__count_set_bits(const uint8_t* bitmap, uint64_t bits) {
  uint64_t count = 0, bytes = bits / 8;
  for (uint64_t i = 0; i < bytes; ++i) count += (uint64_t)__builtin_popcount(bitmap[i]);
  if (bits % 8 != 0) {
    count += (uint64_t)__builtin_popcount(bitmap[bytes] & ((1u << (bits % 8)) - 1));
  }
  return count;
}
