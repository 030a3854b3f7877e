/*
 * The constants of the Arrow IPC format that the SDK reads and writes: the encapsulated message
 * framing and the FlatBuffers field ids of Message.fbs / Schema.fbs. References: Arrow Columnar
 * Format 1.5, "Serialization and Interprocess Communication (IPC)" (framing), and the .fbs files
 * of apache/arrow format/ (field order = field id; docs/udf-abi.md lists the subset).
 */
#ifndef HIGGINS_SDK_ARROW_FORMAT_H
#define HIGGINS_SDK_ARROW_FORMAT_H

/* Encapsulated message: 0xFFFFFFFF, int32 metadata size, Message flatbuffer padded to 8, body.
 * The end-of-stream marker is the continuation followed by a zero size. */
#define HG_IPC_CONTINUATION 0xFFFFFFFFu
#define HG_IPC_ALIGNMENT 8u

/* MetadataVersion (short). V4 and V5 differ only for unions; we write V5. */
#define HG_METADATA_V4 3
#define HG_METADATA_V5 4

/* MessageHeader union tags. */
#define HG_HEADER_SCHEMA 1
#define HG_HEADER_DICTIONARY_BATCH 2
#define HG_HEADER_RECORD_BATCH 3

/* Type union tags (Schema.fbs, declaration order from 1). */
#define HG_TAG_NULL 1
#define HG_TAG_INT 2
#define HG_TAG_FLOATING_POINT 3
#define HG_TAG_BINARY 4
#define HG_TAG_UTF8 5
#define HG_TAG_BOOL 6
#define HG_TAG_DECIMAL 7
#define HG_TAG_DATE 8
#define HG_TAG_TIME 9
#define HG_TAG_TIMESTAMP 10
#define HG_TAG_FIXED_SIZE_BINARY 15
#define HG_TAG_DURATION 18
#define HG_TAG_LARGE_BINARY 19
#define HG_TAG_LARGE_UTF8 20
#define HG_TAG_MAX 26

/* Enums used inside type tables. */
#define HG_PRECISION_HALF 0
#define HG_PRECISION_SINGLE 1
#define HG_PRECISION_DOUBLE 2
#define HG_DATE_UNIT_DAY 0
#define HG_DATE_UNIT_MILLISECOND 1
#define HG_ENDIANNESS_LITTLE 0

/* Field ids (vtable slot = 4 + 2 * id). A union takes two ids: its type, then its value. */
enum {
  /* table Message */
  HG_MESSAGE_VERSION = 0, HG_MESSAGE_HEADER_TYPE = 1, HG_MESSAGE_HEADER = 2,
  HG_MESSAGE_BODY_LENGTH = 3, HG_MESSAGE_NUM_FIELDS = 5,
  /* table Schema */
  HG_SCHEMA_ENDIANNESS = 0, HG_SCHEMA_FIELDS = 1, HG_SCHEMA_NUM_FIELDS = 4,
  /* table Field */
  HG_FIELD_NAME = 0, HG_FIELD_NULLABLE = 1, HG_FIELD_TYPE_TYPE = 2, HG_FIELD_TYPE = 3,
  HG_FIELD_DICTIONARY = 4, HG_FIELD_CHILDREN = 5, HG_FIELD_NUM_FIELDS = 7,
  /* table RecordBatch */
  HG_BATCH_LENGTH = 0, HG_BATCH_NODES = 1, HG_BATCH_BUFFERS = 2, HG_BATCH_COMPRESSION = 3,
  HG_BATCH_NUM_FIELDS = 5,
  /* table Int */
  HG_INT_BIT_WIDTH = 0, HG_INT_IS_SIGNED = 1,
  /* table FloatingPoint */
  HG_FLOAT_PRECISION = 0,
  /* table Date */
  HG_DATE_UNIT = 0,
  /* table Decimal */
  HG_DECIMAL_PRECISION = 0, HG_DECIMAL_SCALE = 1, HG_DECIMAL_BIT_WIDTH = 2,
  /* table Time (unit defaults to MILLISECOND, bitWidth to 32) */
  HG_TIME_UNIT = 0, HG_TIME_BIT_WIDTH = 1,
  /* table Timestamp (unit defaults to SECOND) */
  HG_TIMESTAMP_UNIT = 0, HG_TIMESTAMP_TIMEZONE = 1,
  /* table Duration (unit defaults to MILLISECOND) */
  HG_DURATION_UNIT = 0,
  /* table FixedSizeBinary */
  HG_FIXED_SIZE_BINARY_BYTE_WIDTH = 0
};

/* struct FieldNode { long length; long null_count; } and struct Buffer { long offset; long
 * length; }: 16 bytes each, 8-byte aligned, stored inline in their vectors. */
#define HG_FIELD_NODE_SIZE 16u
#define HG_BUFFER_SIZE 16u

#endif /* HIGGINS_SDK_ARROW_FORMAT_H */
