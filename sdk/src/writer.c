/* hg_builder_finish: the result as the ABI frames it, an 8-byte big-endian length then an Arrow
 * IPC stream (Columnar Format 1.5, "IPC Streaming Format"): a Schema message, one RecordBatch
 * message and the end-of-stream marker. Metadata version V5, little-endian, no compression,
 * every body buffer at an 8-byte aligned offset with its unpadded length, zeroed padding. */
#include "alloc.h"
#include "arrow_format.h"
#include "flatbuf.h"
#include "framing.h"
#include "ipc_layout.h"

/* How a buffer gets into the body. */
typedef enum copy_kind {
  COPY_PLAIN,
  COPY_BITMAP,        /* and clear the bits past the last row */
  COPY_OFFSETS32,     /* and subtract the first offset (a copied input may not start at 0) */
  COPY_OFFSETS64,
} copy_kind;

typedef struct body_buffer {
  const uint8_t* src;
  uint64_t len;
  copy_kind kind;
} body_buffer;

/* One column's node and buffers ("Record batch message": a FieldNode per field, then its
 * buffers in layout order). */
typedef struct column_plan {
  int64_t null_count;
  uint32_t num_buffers;
  body_buffer buffers[3];
} column_plan;


static uint64_t load_offset(const uint8_t* offsets, bool large, uint64_t i) {
  if (large) {
    int64_t v;
    __builtin_memcpy(&v, offsets + 8 * i, 8);
    return (uint64_t)v;
  }
  int32_t v;
  __builtin_memcpy(&v, offsets + 4 * i, 4);
  return (uint32_t)v;
}

static void add_buffer(column_plan* plan, const uint8_t* src, uint64_t len, copy_kind kind) {
  plan->buffers[plan->num_buffers++] = (body_buffer){src, len, kind};
}

/* The buffers of a column built with setters and appenders. */
static int plan_written(const hg_writer* w, column_plan* plan) {
  uint64_t n = (uint64_t)w->length;
  if (hg_type_is_var_length(w->type) && w->appended != w->length) {
    char have[HG_INT_TEXT_SIZE], want[HG_INT_TEXT_SIZE];
    return hg_failv("column '", w->name, "' has ", hg_int_text(w->appended, have),
                    " rows appended; the result has ", hg_int_text(w->length, want), NULL);
  }
  if (w->type == HG_NULL) {
    plan->null_count = (int64_t)n; /* no buffers */
    return 0;
  }
  plan->null_count = w->validity ? (int64_t)(n - hg__count_set_bits(w->validity, n)) : 0;
  add_buffer(plan, w->validity, plan->null_count > 0 ? (n + 7) / 8 : 0, COPY_BITMAP);
  if (w->type == HG_BOOL) {
    add_buffer(plan, w->values, (n + 7) / 8, COPY_BITMAP);
  } else if (hg_type_is_var_length(w->type)) {
    add_buffer(plan, w->values, (n + 1) * (hg__is_large(w->type) ? 8 : 4), COPY_PLAIN);
    add_buffer(plan, w->data, w->data_len, COPY_PLAIN);
  } else {
    add_buffer(plan, w->values, n * hg__value_width(w->type, w->byte_width), COPY_PLAIN);
  }
  return 0;
}

/* The buffers of a column copied from the input: the input's own, sliced to its rows. */
static void plan_copied(const hg_column* col, column_plan* plan) {
  uint64_t n = (uint64_t)col->length;
  plan->null_count = col->null_count;
  if (col->type == HG_NULL) return; /* no buffers */
  add_buffer(plan, col->validity, col->null_count > 0 ? (n + 7) / 8 : 0, COPY_BITMAP);
  if (col->type == HG_BOOL) {
    add_buffer(plan, col->values, (n + 7) / 8, COPY_BITMAP);
  } else if (hg_type_is_var_length(col->type)) {
    bool large = hg__is_large(col->type);
    uint64_t first = load_offset(col->values, large, 0), last = load_offset(col->values, large, n);
    add_buffer(plan, col->values, (n + 1) * (large ? 8 : 4),
               first == 0 ? COPY_PLAIN : (large ? COPY_OFFSETS64 : COPY_OFFSETS32));
    add_buffer(plan, col->data + first, last - first, COPY_PLAIN);
  } else {
    add_buffer(plan, col->values, n * hg__value_width(col->type, col->byte_width), COPY_PLAIN);
  }
}

/* Copies one buffer into the body at `dst` and zeroes its padding. */
static void copy_buffer(uint8_t* dst, const body_buffer* b, uint64_t rows) {
  if (b->len == 0) return;
  if (b->kind == COPY_OFFSETS32 || b->kind == COPY_OFFSETS64) {
    bool large = b->kind == COPY_OFFSETS64;
    uint64_t first = load_offset(b->src, large, 0);
    for (uint64_t i = 0; i <= rows; ++i) {
      uint64_t v = load_offset(b->src, large, i) - first;
      __builtin_memcpy(dst + (large ? 8 : 4) * i, &v, large ? 8 : 4); /* little-endian */
    }
  } else {
    __builtin_memcpy(dst, b->src, (size_t)b->len); /* fits: the output was allocated */
  }
  if (b->kind == COPY_BITMAP && rows % 8 != 0) {
    dst[b->len - 1] &= (uint8_t)((1u << (rows % 8)) - 1);
  }
  __builtin_memset(dst + b->len, 0, (size_t)(hg__pad8(b->len) - b->len));
}

/* ----- Metadata ----- */

static uint8_t type_tag(hg_type type) {
  if (hg_type_is_integer(type)) return HG_TAG_INT;
  if (hg_type_is_floating(type)) return HG_TAG_FLOATING_POINT;
  switch (type) {
    case HG_BOOL: return HG_TAG_BOOL;
    case HG_UTF8: return HG_TAG_UTF8;
    case HG_BINARY: return HG_TAG_BINARY;
    case HG_LARGE_UTF8: return HG_TAG_LARGE_UTF8;
    case HG_LARGE_BINARY: return HG_TAG_LARGE_BINARY;
    case HG_DATE32: case HG_DATE64: return HG_TAG_DATE;
    case HG_DECIMAL128: return HG_TAG_DECIMAL;
    case HG_TIMESTAMP: return HG_TAG_TIMESTAMP;
    case HG_TIME32: case HG_TIME64: return HG_TAG_TIME;
    case HG_DURATION: return HG_TAG_DURATION;
    case HG_FIXED_SIZE_BINARY: return HG_TAG_FIXED_SIZE_BINARY;
    case HG_NULL: return HG_TAG_NULL;
    default: return 0;
  }
}

static uint32_t c_strlen(const char* s) {
  uint32_t n = 0;
  while (s[n] != '\0') ++n;
  return n;
}

/* The type table of a Field (Schema.fbs: Int, FloatingPoint, Date, Decimal, Time, Timestamp,
 * Duration, FixedSizeBinary, or an empty table for Null, Bool, Utf8, Binary, LargeUtf8,
 * LargeBinary); returns its position. Every scalar is written, defaults included. */
static uint32_t build_type(hg_fbw* w, const hg_writer* c) {
  hg_fbw_table t;
  uint32_t timezone = 0;
  if (hg_type_is_integer(c->type)) {
    hg_fbw_table_begin(w, &t, 2);
    hg_fbw_scalar(w, &t, HG_INT_BIT_WIDTH, 8u * hg_type_width(c->type), 4);
    hg_fbw_scalar(w, &t, HG_INT_IS_SIGNED, c->type <= HG_INT64, 1);
  } else if (hg_type_is_floating(c->type)) {
    hg_fbw_table_begin(w, &t, 1);
    hg_fbw_scalar(w, &t, HG_FLOAT_PRECISION,
                  c->type == HG_FLOAT16   ? HG_PRECISION_HALF
                  : c->type == HG_FLOAT32 ? HG_PRECISION_SINGLE
                                          : HG_PRECISION_DOUBLE, 2);
  } else if (c->type == HG_DATE32 || c->type == HG_DATE64) {
    hg_fbw_table_begin(w, &t, 1);
    hg_fbw_scalar(w, &t, HG_DATE_UNIT,
                  c->type == HG_DATE32 ? HG_DATE_UNIT_DAY : HG_DATE_UNIT_MILLISECOND, 2);
  } else if (c->type == HG_DECIMAL128) {
    hg_fbw_table_begin(w, &t, 3);
    hg_fbw_scalar(w, &t, HG_DECIMAL_PRECISION, (uint32_t)c->decimal_precision, 4);
    hg_fbw_scalar(w, &t, HG_DECIMAL_SCALE, (uint32_t)c->decimal_scale, 4);
    hg_fbw_scalar(w, &t, HG_DECIMAL_BIT_WIDTH, 128, 4);
  } else if (c->type == HG_TIME32 || c->type == HG_TIME64) {
    hg_fbw_table_begin(w, &t, 2);
    hg_fbw_scalar(w, &t, HG_TIME_UNIT, (uint16_t)c->time_unit, 2);
    hg_fbw_scalar(w, &t, HG_TIME_BIT_WIDTH, c->type == HG_TIME32 ? 32 : 64, 4);
  } else if (c->type == HG_TIMESTAMP) {
    hg_fbw_table_begin(w, &t, 2);
    hg_fbw_scalar(w, &t, HG_TIMESTAMP_UNIT, (uint16_t)c->time_unit, 2);
    if (c->timezone != NULL) timezone = hg_fbw_ref(w, &t, HG_TIMESTAMP_TIMEZONE);
  } else if (c->type == HG_DURATION) {
    hg_fbw_table_begin(w, &t, 1);
    hg_fbw_scalar(w, &t, HG_DURATION_UNIT, (uint16_t)c->time_unit, 2);
  } else if (c->type == HG_FIXED_SIZE_BINARY) {
    hg_fbw_table_begin(w, &t, 1);
    hg_fbw_scalar(w, &t, HG_FIXED_SIZE_BINARY_BYTE_WIDTH, (uint32_t)c->byte_width, 4);
  } else {
    hg_fbw_table_begin(w, &t, 0);
  }
  hg_fbw_table_end(w, &t);
  if (timezone != 0) {
    hg_fbw_set_ref(w, timezone, hg_fbw_string(w, c->timezone, c_strlen(c->timezone)));
  }
  return t.pos;
}

/* Field { name, nullable, type_type, type, children = [] }, referenced from `slot`. */
static void build_field(hg_fbw* w, const hg_writer* c, uint32_t slot) {
  hg_fbw_table field;
  hg_fbw_table_begin(w, &field, HG_FIELD_NUM_FIELDS);
  uint32_t name = hg_fbw_ref(w, &field, HG_FIELD_NAME);
  hg_fbw_scalar(w, &field, HG_FIELD_NULLABLE, c->nullable ? 1 : 0, 1);
  hg_fbw_scalar(w, &field, HG_FIELD_TYPE_TYPE, type_tag(c->type), 1);
  uint32_t type = hg_fbw_ref(w, &field, HG_FIELD_TYPE);
  uint32_t children = hg_fbw_ref(w, &field, HG_FIELD_CHILDREN);
  hg_fbw_table_end(w, &field);
  hg_fbw_set_ref(w, slot, field.pos);
  hg_fbw_set_ref(w, name, hg_fbw_string(w, c->name, c_strlen(c->name)));
  hg_fbw_set_ref(w, type, build_type(w, c));
  hg_fbw_set_ref(w, children, hg_fbw_vector(w, 0, 4, 4));
}

/* The root Message table; returns the position of its `header` reference. */
static uint32_t build_message(hg_fbw* w, uint8_t header_type, int64_t body_len) {
  uint32_t root = hg_fbw_reserve(w, 4, 4, 0);
  hg_fbw_table m;
  hg_fbw_table_begin(w, &m, HG_MESSAGE_NUM_FIELDS);
  hg_fbw_scalar(w, &m, HG_MESSAGE_VERSION, HG_METADATA_V5, 2);
  hg_fbw_scalar(w, &m, HG_MESSAGE_HEADER_TYPE, header_type, 1);
  uint32_t header = hg_fbw_ref(w, &m, HG_MESSAGE_HEADER);
  hg_fbw_scalar(w, &m, HG_MESSAGE_BODY_LENGTH, (uint64_t)body_len, 8);
  hg_fbw_table_end(w, &m);
  hg_fbw_set_ref(w, root, m.pos);
  return header;
}

/* Message { header = Schema { endianness = Little, fields } }. */
static void build_schema(hg_fbw* w, const hg_builder* b) {
  uint32_t header = build_message(w, HG_HEADER_SCHEMA, 0);
  hg_fbw_table schema;
  hg_fbw_table_begin(w, &schema, HG_SCHEMA_NUM_FIELDS);
  hg_fbw_scalar(w, &schema, HG_SCHEMA_ENDIANNESS, HG_ENDIANNESS_LITTLE, 2);
  uint32_t fields = hg_fbw_ref(w, &schema, HG_SCHEMA_FIELDS);
  hg_fbw_table_end(w, &schema);
  hg_fbw_set_ref(w, header, schema.pos);
  uint32_t vector = hg_fbw_vector(w, (uint32_t)b->num_columns, 4, 4);
  hg_fbw_set_ref(w, fields, vector);
  for (int32_t i = 0; i < b->num_columns; ++i) {
    build_field(w, b->columns[i], vector + 4 + 4 * (uint32_t)i);
  }
}

/* Message { header = RecordBatch { length, nodes, buffers }, bodyLength }. */
static void build_batch(hg_fbw* w, const hg_builder* b, const column_plan* plans,
                        uint64_t body_len) {
  uint32_t header = build_message(w, HG_HEADER_RECORD_BATCH, (int64_t)body_len);
  hg_fbw_table batch;
  hg_fbw_table_begin(w, &batch, HG_BATCH_NUM_FIELDS);
  hg_fbw_scalar(w, &batch, HG_BATCH_LENGTH, (uint64_t)b->num_rows, 8);
  uint32_t nodes_ref = hg_fbw_ref(w, &batch, HG_BATCH_NODES);
  uint32_t buffers_ref = hg_fbw_ref(w, &batch, HG_BATCH_BUFFERS);
  hg_fbw_table_end(w, &batch);
  hg_fbw_set_ref(w, header, batch.pos);

  uint32_t num_buffers = 0;
  for (int32_t i = 0; i < b->num_columns; ++i) num_buffers += plans[i].num_buffers;
  uint32_t nodes = hg_fbw_vector(w, (uint32_t)b->num_columns, HG_FIELD_NODE_SIZE, 8);
  hg_fbw_set_ref(w, nodes_ref, nodes);
  uint32_t buffers = hg_fbw_vector(w, num_buffers, HG_BUFFER_SIZE, 8);
  hg_fbw_set_ref(w, buffers_ref, buffers);
  uint32_t k = 0;
  uint64_t offset = 0;
  for (int32_t i = 0; i < b->num_columns; ++i) {
    uint32_t node = nodes + 4 + HG_FIELD_NODE_SIZE * (uint32_t)i;
    hg_fbw_put_i64(w, node, b->num_rows);
    hg_fbw_put_i64(w, node + 8, plans[i].null_count);
    for (uint32_t j = 0; j < plans[i].num_buffers; ++j, ++k) {
      uint32_t buffer = buffers + 4 + HG_BUFFER_SIZE * k;
      hg_fbw_put_i64(w, buffer, (int64_t)offset);
      hg_fbw_put_i64(w, buffer + 8, (int64_t)plans[i].buffers[j].len);
      offset += hg__pad8(plans[i].buffers[j].len);
    }
  }
}

/* Frames the flatbuffer built at `at + 8` as an encapsulated message: continuation marker,
 * metadata size (flatbuffer + padding to 8), zero padding. Returns the message's size. */
static uint32_t frame_message(uint8_t* at, const hg_fbw* w) {
  uint32_t padded = (uint32_t)hg__pad8(w->len);
  uint32_t prefix[2] = {HG_IPC_CONTINUATION, padded};
  __builtin_memcpy(at, prefix, 8);
  __builtin_memset(at + 8 + w->len, 0, padded - w->len);
  return 8 + padded;
}

/* Upper bounds of the two flatbuffers (the writer checks them and fails rather than overflow). */
static uint64_t schema_bound(const hg_builder* b) {
  uint64_t n = 256;
  for (int32_t i = 0; i < b->num_columns; ++i) {
    const hg_writer* c = b->columns[i];
    n += 192 + c_strlen(c->name) + (c->timezone != NULL ? c_strlen(c->timezone) : 0);
  }
  return n;
}

static uint64_t batch_bound(const hg_builder* b, uint32_t num_buffers) {
  return 256 + 24 * (uint64_t)b->num_columns + 24 * (uint64_t)num_buffers;
}

static void* fail_null(const char* message) {
  hg_fail(message);
  return NULL;
}

static bool builder_ok(const hg_builder* b) {
  bool ok = !b->failed && b->columns != NULL;
  for (int32_t i = 0; ok && i < b->num_columns; ++i) ok = !b->columns[i]->failed;
  if (!ok && !hg_failed()) hg_fail("the result could not be built");
  return ok;
}

void* hg_builder_finish(hg_builder* b) {
  if (!builder_ok(b)) return NULL;
  size_t plans_size = sizeof(column_plan) * (size_t)(b->num_columns + 1);
  column_plan* plans = (column_plan*)hg_alloc_zeroed(plans_size);
  if (plans == NULL) return NULL;
  uint64_t body_len = 0;
  uint32_t num_buffers = 0;
  for (int32_t i = 0; i < b->num_columns; ++i) {
    const hg_writer* c = b->columns[i];
    if (c->source != NULL) {
      plan_copied(c->source, &plans[i]);
    } else if (plan_written(c, &plans[i]) != 0) {
      return NULL;
    }
    num_buffers += plans[i].num_buffers;
    for (uint32_t j = 0; j < plans[i].num_buffers; ++j) {
      body_len += hg__pad8(plans[i].buffers[j].len);
    }
  }
  uint64_t schema_cap = schema_bound(b), batch_cap = batch_bound(b, num_buffers);
  uint64_t total = 8 + (8 + schema_cap) + (8 + batch_cap) + body_len + 8;
  if (total > UINT32_MAX) return fail_null("the result is larger than 4 GiB");
  uint8_t* out = (uint8_t*)hg__alloc64(total, false);
  if (out == NULL) return NULL;

  uint64_t pos = 8; /* after the big-endian length */
  hg_fbw w;
  hg_fbw_init(&w, out + pos + 8, (uint32_t)schema_cap);
  build_schema(&w, b);
  if (w.overflow) return fail_null("internal error: the schema metadata overflowed");
  pos += frame_message(out + pos, &w);

  hg_fbw_init(&w, out + pos + 8, (uint32_t)batch_cap);
  build_batch(&w, b, plans, body_len);
  if (w.overflow) return fail_null("internal error: the batch metadata overflowed");
  pos += frame_message(out + pos, &w);

  for (int32_t i = 0; i < b->num_columns; ++i) {
    for (uint32_t j = 0; j < plans[i].num_buffers; ++j) {
      copy_buffer(out + pos, &plans[i].buffers[j], (uint64_t)b->num_rows);
      pos += hg__pad8(plans[i].buffers[j].len);
    }
  }
  static const uint8_t kEndOfStream[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  __builtin_memcpy(out + pos, kEndOfStream, 8);
  pos += 8;
  hg__store_be64(out, pos - 8);
  return out;
}
