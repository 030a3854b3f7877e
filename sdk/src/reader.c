/* Reading a framed input (docs/udf-abi.md, "Framing") into an hg_batch: an 8-byte big-endian
 * length, then an Arrow IPC stream (Columnar Format 1.5, "IPC Streaming Format"): a Schema
 * message, at most one RecordBatch message, and an optional end-of-stream marker. Nothing is
 * copied: the columns point into the input. */
#include "alloc.h"
#include "arrow_format.h"
#include "flatbuf.h"
#include "framing.h"
#include "ipc_layout.h"

/* One encapsulated message ("Encapsulated message format"). */
typedef struct message {
  hg_fb meta;              /* the Message flatbuffer (with its padding) */
  hg_fb_table root;
  uint8_t header_type;
  hg_fb_table header;
  const uint8_t* body;
  uint64_t body_len;
} message;

typedef struct stream {
  const uint8_t* bytes;
  uint64_t size;
  uint64_t pos;
} stream;

static int malformed(const char* what) {
  return hg_failv("the input is not a valid Arrow IPC stream: ", what, NULL);
}

static uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  __builtin_memcpy(&v, p, 4);
  return v;
}

/* Reads the next message. Returns 1 at the end of the stream (the end-of-stream marker, the
 * pre-0.15 zero word, or simply no more bytes), 0 for a message, HG_ERROR otherwise. */
static int next_message(stream* s, message* m) {
  uint64_t left = s->size - s->pos;
  if (left == 0) return 1;
  if (left < 4) return malformed("it ends inside a message prefix");
  uint32_t word = load_u32(s->bytes + s->pos);
  s->pos += 4;
  if (word == HG_IPC_CONTINUATION) {
    if (s->size - s->pos < 4) return malformed("it ends inside a message prefix");
    word = load_u32(s->bytes + s->pos);
    s->pos += 4;
  }
  /* otherwise the legacy (pre-0.15) framing: the word is the metadata size */
  int32_t meta_size = (int32_t)word;
  if (meta_size == 0) return 1;
  if (meta_size < 0) return malformed("a message has a negative metadata size");
  if ((uint64_t)meta_size > s->size - s->pos) return malformed("it ends inside a message's metadata");
  m->meta.buf = s->bytes + s->pos;
  m->meta.size = (uint32_t)meta_size;
  s->pos += (uint32_t)meta_size;

  int16_t version;
  int64_t body_len;
  if (hg_fb_root(&m->meta, &m->root) != 0 ||
      hg_fb_i16(&m->root, HG_MESSAGE_VERSION, 0, &version) != 0 ||
      hg_fb_u8(&m->root, HG_MESSAGE_HEADER_TYPE, 0, &m->header_type) != 0 ||
      hg_fb_table_field(&m->root, HG_MESSAGE_HEADER, false, &m->header) != 0 ||
      hg_fb_i64(&m->root, HG_MESSAGE_BODY_LENGTH, 0, &body_len) != 0) {
    return malformed("a Message flatbuffer is malformed");
  }
  if (version != HG_METADATA_V4 && version != HG_METADATA_V5) {
    return malformed("metadata version is not V4 or V5");
  }
  if (body_len < 0 || (uint64_t)body_len > s->size - s->pos) {
    return malformed("a message body extends past the end of the input");
  }
  m->body = s->bytes + s->pos;
  m->body_len = (uint64_t)body_len;
  s->pos += (uint64_t)body_len;
  return 0;
}

/* ----- Schema ----- */

/* The unsupported type message: names the column and the Arrow type. */
static hg_type unsupported_type(const hg_column* col, uint8_t tag, const char* detail) {
  static const char* const kTagNames[HG_TAG_MAX + 1] = {
      "none", "null", "int", "floating point", "binary", "utf8", "bool", "decimal", "date",
      "time", "timestamp", "interval", "list", "struct", "union", "fixed-size binary",
      "fixed-size list", "map", "duration", "large binary", "large utf8", "large list",
      "run-end encoded", "binary view", "utf8 view", "list view", "large list view"};
  char buf[HG_INT_TEXT_SIZE];
  hg_failv("column '", col->name, "' has Arrow type ",
           tag <= HG_TAG_MAX ? kTagNames[tag] : hg_int_text(tag, buf), detail,
           ", which the Higgins UDF SDK does not support (supported: null, bool, int8..int64, "
           "uint8..uint64, float16, float32, float64, utf8, large_utf8, binary, large_binary, "
           "fixed_size_binary, date32, date64, decimal128, timestamp, time32, time64, "
           "duration)", NULL);
  return HG_TYPE_INVALID;
}

static hg_type int_type(const hg_fb_table* type) {
  int32_t bit_width;
  uint8_t is_signed;
  if (hg_fb_i32(type, HG_INT_BIT_WIDTH, 0, &bit_width) != 0 ||
      hg_fb_u8(type, HG_INT_IS_SIGNED, 0, &is_signed) != 0) {
    return HG_TYPE_INVALID;
  }
  switch (bit_width) {
    case 8: return is_signed ? HG_INT8 : HG_UINT8;
    case 16: return is_signed ? HG_INT16 : HG_UINT16;
    case 32: return is_signed ? HG_INT32 : HG_UINT32;
    case 64: return is_signed ? HG_INT64 : HG_UINT64;
    default: return HG_TYPE_INVALID;
  }
}

static hg_type float_type(const hg_fb_table* type) {
  int16_t precision;
  if (hg_fb_i16(type, HG_FLOAT_PRECISION, HG_PRECISION_HALF, &precision) != 0) {
    return HG_TYPE_INVALID;
  }
  if (precision == HG_PRECISION_HALF) return HG_FLOAT16;
  if (precision == HG_PRECISION_SINGLE) return HG_FLOAT32;
  if (precision == HG_PRECISION_DOUBLE) return HG_FLOAT64;
  return HG_TYPE_INVALID;
}

static hg_type date_type(const hg_fb_table* type) {
  int16_t unit;
  if (hg_fb_i16(type, HG_DATE_UNIT, HG_DATE_UNIT_MILLISECOND, &unit) != 0) return HG_TYPE_INVALID;
  if (unit == HG_DATE_UNIT_DAY) return HG_DATE32;
  if (unit == HG_DATE_UNIT_MILLISECOND) return HG_DATE64;
  return HG_TYPE_INVALID;
}

static hg_type decimal_type(const hg_fb_table* type, hg_column* col) {
  int32_t bit_width;
  if (hg_fb_i32(type, HG_DECIMAL_PRECISION, 0, &col->decimal_precision) != 0 ||
      hg_fb_i32(type, HG_DECIMAL_SCALE, 0, &col->decimal_scale) != 0 ||
      hg_fb_i32(type, HG_DECIMAL_BIT_WIDTH, 128, &bit_width) != 0 || bit_width != 128) {
    return HG_TYPE_INVALID;
  }
  return HG_DECIMAL128;
}

/* A TimeUnit field: SECOND .. NANOSECOND, else -1. */
static int time_unit(const hg_fb_table* type, int id, int16_t def) {
  int16_t unit;
  if (hg_fb_i16(type, id, def, &unit) != 0 || unit < HG_SECOND || unit > HG_NANOSECOND) return -1;
  return unit;
}

static hg_type time_type(const hg_fb_table* type, hg_column* col) {
  int unit = time_unit(type, HG_TIME_UNIT, HG_MILLISECOND);
  int32_t bit_width;
  if (unit < 0 || hg_fb_i32(type, HG_TIME_BIT_WIDTH, 32, &bit_width) != 0) return HG_TYPE_INVALID;
  col->time_unit = (hg_time_unit)unit;
  if (bit_width == 32 && unit <= HG_MILLISECOND) return HG_TIME32;
  if (bit_width == 64 && unit >= HG_MICROSECOND) return HG_TIME64;
  return HG_TYPE_INVALID;
}

static hg_type timestamp_type(const hg_fb_table* type, hg_column* col) {
  int unit = time_unit(type, HG_TIMESTAMP_UNIT, HG_SECOND);
  if (unit < 0) return HG_TYPE_INVALID;
  col->time_unit = (hg_time_unit)unit;
  uint32_t len;
  if (hg_fb_has(type, HG_TIMESTAMP_TIMEZONE) &&
      hg_fb_string(type, HG_TIMESTAMP_TIMEZONE, &col->timezone, &len) != 0) {
    return HG_TYPE_INVALID;
  }
  return HG_TIMESTAMP;
}

static hg_type duration_type(const hg_fb_table* type, hg_column* col) {
  int unit = time_unit(type, HG_DURATION_UNIT, HG_MILLISECOND);
  if (unit < 0) return HG_TYPE_INVALID;
  col->time_unit = (hg_time_unit)unit;
  return HG_DURATION;
}

static hg_type fixed_size_binary_type(const hg_fb_table* type, hg_column* col) {
  if (hg_fb_i32(type, HG_FIXED_SIZE_BINARY_BYTE_WIDTH, 0, &col->byte_width) != 0 ||
      col->byte_width < 1) {
    return HG_TYPE_INVALID;
  }
  return HG_FIXED_SIZE_BINARY;
}

/* The hg_type of a Field's type union (Schema.fbs "union Type"), with its parameters stored in
 * `col`; HG_TYPE_INVALID after recording why. */
static hg_type field_type(hg_column* col, uint8_t tag, const hg_fb_table* type) {
  hg_type t = HG_TYPE_INVALID;
  switch (tag) {
    case HG_TAG_NULL: t = HG_NULL; break;
    case HG_TAG_INT: t = int_type(type); break;
    case HG_TAG_FLOATING_POINT: t = float_type(type); break;
    case HG_TAG_BINARY: t = HG_BINARY; break;
    case HG_TAG_UTF8: t = HG_UTF8; break;
    case HG_TAG_BOOL: t = HG_BOOL; break;
    case HG_TAG_DECIMAL: t = decimal_type(type, col); break;
    case HG_TAG_DATE: t = date_type(type); break;
    case HG_TAG_TIME: t = time_type(type, col); break;
    case HG_TAG_TIMESTAMP: t = timestamp_type(type, col); break;
    case HG_TAG_FIXED_SIZE_BINARY: t = fixed_size_binary_type(type, col); break;
    case HG_TAG_DURATION: t = duration_type(type, col); break;
    case HG_TAG_LARGE_BINARY: t = HG_LARGE_BINARY; break;
    case HG_TAG_LARGE_UTF8: t = HG_LARGE_UTF8; break;
    default: return unsupported_type(col, tag, "");
  }
  return t != HG_TYPE_INVALID ? t : unsupported_type(col, tag, " with unsupported parameters");
}

static int read_field(const hg_fb* fb, uint32_t fields, uint32_t i, hg_column* col) {
  hg_fb_table field, type;
  uint8_t nullable, tag;
  __builtin_memset(col, 0, sizeof *col);
  if (hg_fb_vector_table(fb, fields, i, &field) != 0 ||
      hg_fb_string(&field, HG_FIELD_NAME, &col->name, &col->name_len) != 0 ||
      hg_fb_u8(&field, HG_FIELD_NULLABLE, 0, &nullable) != 0 ||
      hg_fb_u8(&field, HG_FIELD_TYPE_TYPE, 0, &tag) != 0 ||
      hg_fb_table_field(&field, HG_FIELD_TYPE, false, &type) != 0) {
    return malformed("a schema Field is malformed");
  }
  col->nullable = nullable != 0;
  if (hg_fb_has(&field, HG_FIELD_DICTIONARY)) {
    return hg_failv("column '", col->name, "' is dictionary-encoded, which the Higgins UDF SDK "
                    "does not support", NULL);
  }
  col->type = field_type(col, tag, &type);
  return col->type == HG_TYPE_INVALID ? HG_ERROR : 0;
}

static int read_schema(const message* m, hg_batch* out) {
  int16_t endianness;
  uint32_t fields, count;
  if (hg_fb_i16(&m->header, HG_SCHEMA_ENDIANNESS, HG_ENDIANNESS_LITTLE, &endianness) != 0 ||
      hg_fb_vector(&m->header, HG_SCHEMA_FIELDS, 4, &fields, &count) != 0) {
    return malformed("the Schema is malformed");
  }
  if (endianness != HG_ENDIANNESS_LITTLE) {
    return hg_fail("the input is big-endian; only little-endian Arrow data is supported");
  }
  hg_column* columns = (hg_column*)hg_alloc(sizeof(hg_column) * (count > 0 ? count : 1));
  if (columns == NULL) return HG_ERROR;
  for (uint32_t i = 0; i < count; ++i) {
    if (read_field(&m->meta, fields, i, &columns[i]) != 0) return HG_ERROR;
  }
  out->columns = columns;
  out->num_columns = (int32_t)count;
  return 0;
}

/* ----- Record batch ----- */

/* Reads the batch's buffers in order (Columnar Format, "Buffer Layout": validity, then values,
 * then data for var-length types). */
typedef struct buffer_cursor {
  const message* m;
  uint32_t buffers;   /* position of the Buffer structs */
  uint32_t count;
  uint32_t next;
} buffer_cursor;

/* The next buffer, checked to lie in the body and to hold at least `min_len` bytes. */
static int take_buffer(buffer_cursor* c, const hg_column* col, uint64_t min_len,
                       const uint8_t** ptr, uint64_t* len) {
  if (c->next >= c->count) return malformed("the record batch has too few buffers");
  int64_t b[2]; /* offset, length */
  __builtin_memcpy(b, c->m->meta.buf + c->buffers + HG_BUFFER_SIZE * c->next, sizeof b);
  ++c->next;
  if (b[0] < 0 || b[1] < 0 || (uint64_t)b[0] > c->m->body_len ||
      (uint64_t)b[1] > c->m->body_len - (uint64_t)b[0]) {
    return malformed("a buffer lies outside the message body");
  }
  if ((uint64_t)b[1] < min_len) {
    return hg_failv("the input is not a valid Arrow IPC stream: a buffer of column '", col->name,
                    "' is too small for its rows", NULL);
  }
  *ptr = c->m->body + b[0];
  *len = (uint64_t)b[1];
  return 0;
}

/* Offsets must start at 0 or more, never decrease, and end within the data (then every offset
 * lies within the data). Checked without a branch per row, so that the loop vectorises: it runs
 * over every var-length column of every input. */
static int check_offsets(const hg_column* col, uint64_t data_len) {
  uint32_t n = (uint32_t)col->length;
  const uint8_t* v = col->values;
  bool bad;
  if (hg__is_large(col->type)) {
    int64_t first, last;
    __builtin_memcpy(&first, v, 8);
    __builtin_memcpy(&last, v + 8u * n, 8);
    uint32_t decreasing = 0;
    for (uint32_t i = 0; i < n; ++i) {
      int64_t a, b;
      __builtin_memcpy(&a, v + 8u * i, 8);
      __builtin_memcpy(&b, v + 8u * i + 8u, 8);
      decreasing |= b < a;
    }
    bad = first < 0 || (uint64_t)last > data_len || decreasing != 0; /* last < 0 is huge */
  } else {
    int32_t first, last;
    __builtin_memcpy(&first, v, 4);
    __builtin_memcpy(&last, v + 4u * n, 4);
    uint32_t decreasing = 0;
    for (uint32_t i = 0; i < n; ++i) {
      int32_t a, b;
      __builtin_memcpy(&a, v + 4u * i, 4);
      __builtin_memcpy(&b, v + 4u * i + 4u, 4);
      decreasing |= b < a;
    }
    bad = first < 0 || (uint64_t)(int64_t)last > data_len || decreasing != 0;
  }
  if (bad) {
    return hg_failv("the input is not a valid Arrow IPC stream: the offsets of column '",
                    col->name, "' are out of order or out of bounds", NULL);
  }
  return 0;
}

/* A null column has no buffers (Columnar Format, "Null Layout"); it gets an all-zero validity
 * bitmap so that hg_is_null needs no special case. */
static int null_column(hg_column* col) {
  col->null_count = col->length;
  col->validity = (const uint8_t*)hg__alloc64(((uint64_t)col->length + 7) / 8 + 1, true);
  return col->validity != NULL ? 0 : HG_ERROR;
}

static int read_column_buffers(buffer_cursor* c, hg_column* col) {
  static const uint8_t kEmptyOffsets[8] = {0};
  if (col->type == HG_NULL) return null_column(col);
  uint64_t n = (uint64_t)col->length, len;
  const uint8_t* validity;
  if (take_buffer(c, col, col->null_count > 0 ? (n + 7) / 8 : 0, &validity, &len) != 0) {
    return HG_ERROR;
  }
  /* the bitmap decides, not the FieldNode's count, so that both always agree downstream */
  col->validity = col->null_count > 0 ? validity : NULL;
  if (col->validity != NULL) {
    col->null_count = (int32_t)(n - hg__count_set_bits(col->validity, n));
    if (col->null_count == 0) col->validity = NULL;
  }
  if (col->type == HG_BOOL) return take_buffer(c, col, (n + 7) / 8, &col->values, &len);
  if (!hg_type_is_var_length(col->type)) {
    return take_buffer(c, col, n * hg__value_width(col->type, col->byte_width), &col->values,
                       &len);
  }
  uint64_t width = hg__is_large(col->type) ? 8 : 4;
  /* a 0-row column may have an empty offsets buffer (Arrow C++ writes one) */
  if (take_buffer(c, col, n == 0 ? 0 : (n + 1) * width, &col->values, &len) != 0) {
    return HG_ERROR;
  }
  if (n == 0) col->values = kEmptyOffsets;
  if (take_buffer(c, col, 0, &col->data, &col->data_size) != 0) return HG_ERROR;
  return check_offsets(col, col->data_size);
}

static int read_batch(const message* m, hg_batch* out) {
  int64_t length;
  uint32_t nodes, num_nodes, buffers, num_buffers;
  if (hg_fb_i64(&m->header, HG_BATCH_LENGTH, 0, &length) != 0 ||
      hg_fb_vector(&m->header, HG_BATCH_NODES, HG_FIELD_NODE_SIZE, &nodes, &num_nodes) != 0 ||
      hg_fb_vector(&m->header, HG_BATCH_BUFFERS, HG_BUFFER_SIZE, &buffers, &num_buffers) != 0) {
    return malformed("the RecordBatch is malformed");
  }
  if (hg_fb_has(&m->header, HG_BATCH_COMPRESSION)) {
    return hg_fail("the input's record batch is compressed; UDF inputs must be uncompressed");
  }
  if (length < 0 || length > INT32_MAX) return malformed("the batch length is out of range");
  if (num_nodes != (uint32_t)out->num_columns) {
    return malformed("the record batch's field count differs from the schema's");
  }
  out->num_rows = (int32_t)length;
  buffer_cursor cursor = {m, buffers, num_buffers, 0};
  hg_column* columns = (hg_column*)out->columns;
  for (int32_t i = 0; i < out->num_columns; ++i) {
    int64_t node[2]; /* length, null_count */
    __builtin_memcpy(node, m->meta.buf + nodes + HG_FIELD_NODE_SIZE * (uint32_t)i, sizeof node);
    if (node[0] != length || node[1] < 0 || node[1] > length) {
      return hg_failv("the input is not a valid Arrow IPC stream: the field node of column '",
                      columns[i].name, "' has a bad length or null count", NULL);
    }
    columns[i].length = (int32_t)length;
    columns[i].null_count = (int32_t)node[1];
    if (read_column_buffers(&cursor, &columns[i]) != 0) return HG_ERROR;
  }
  return 0;
}

/* A schema without a batch reads as 0 rows. */
static void empty_columns(hg_batch* out) {
  static const uint8_t kZeros[8] = {0};
  hg_column* columns = (hg_column*)out->columns;
  for (int32_t i = 0; i < out->num_columns; ++i) {
    columns[i].values = kZeros;
    columns[i].data = kZeros;
    if (columns[i].type == HG_NULL) columns[i].validity = kZeros;
  }
}

int hg_batch_read(hg_batch* out, const void* framed) {
  __builtin_memset(out, 0, sizeof *out);
  const uint8_t* p = (const uint8_t*)framed;
  uint64_t memory = hg__memory_bytes();
  if (p == NULL || (uintptr_t)p > memory - 8) return hg_fail("the input pointer is outside memory");
  uint64_t n = hg__load_be64(p);
  if (n > memory - 8 - (uintptr_t)p) return hg_fail("the input's length runs past the end of memory");
  stream s = {p + 8, n, 0};
  message m;
  int r = next_message(&s, &m);
  if (r != 0) return r < 0 ? HG_ERROR : malformed("it has no schema message");
  if (m.header_type != HG_HEADER_SCHEMA) return malformed("it does not start with a schema");
  if (read_schema(&m, out) != 0) return HG_ERROR;
  bool have_batch = false;
  while ((r = next_message(&s, &m)) == 0) {
    if (m.header_type == HG_HEADER_DICTIONARY_BATCH) {
      return hg_fail("the input has a dictionary batch; dictionaries are not supported");
    }
    if (m.header_type != HG_HEADER_RECORD_BATCH) {
      return malformed("a message after the schema is not a record batch");
    }
    if (have_batch) return hg_fail("the input has more than one record batch; the ABI sends one");
    if (read_batch(&m, out) != 0) return HG_ERROR;
    have_batch = true;
  }
  if (r < 0) return HG_ERROR;
  if (!have_batch) empty_columns(out);
  return 0;
}
