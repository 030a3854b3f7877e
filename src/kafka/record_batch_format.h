#pragma once

#include <cstddef>
#include <cstdint>

namespace higgins::kafka::batch_format {

// The layout of a record batch v2 (Kafka documentation, "Message Format" > "Record Batch").
// All fixed-width fields are big-endian.
//
//   offset  size  field
//        0     8  baseOffset             (outside the CRC: a broker rewrites it)
//        8     4  batchLength            bytes after this field: the batch is batchLength + 12
//       12     4  partitionLeaderEpoch   (outside the CRC: a broker rewrites it)
//       16     1  magic                  2; 0 and 1 are the older message sets
//       17     4  crc                    CRC-32C of bytes 21 .. end
//       21     2  attributes             see the masks below
//       23     4  lastOffsetDelta
//       27     8  baseTimestamp
//       35     8  maxTimestamp
//       43     8  producerId             -1 without idempotence
//       51     2  producerEpoch          -1 without idempotence
//       53     4  baseSequence           -1 without idempotence
//       57     4  recordsCount
//       61        records                compressed as a whole when the codec is not none
//
// A record: length VARINT (bytes after itself), attributes INT8 (unused), timestampDelta VARLONG,
// offsetDelta VARINT, keyLength VARINT (-1 = null), key, valueLength VARINT (-1 = null), value,
// headers count VARINT, then each header: keyLength VARINT (never null), key, valueLength VARINT
// (-1 = null), value.

constexpr size_t kBaseOffsetOffset = 0;
constexpr size_t kBatchLengthOffset = 8;
constexpr size_t kPartitionLeaderEpochOffset = 12;
constexpr size_t kMagicOffset = 16;
constexpr size_t kCrcOffset = 17;
constexpr size_t kAttributesOffset = 21;
constexpr size_t kLastOffsetDeltaOffset = 23;
constexpr size_t kBaseTimestampOffset = 27;
constexpr size_t kMaxTimestampOffset = 35;
constexpr size_t kProducerIdOffset = 43;
constexpr size_t kProducerEpochOffset = 51;
constexpr size_t kBaseSequenceOffset = 53;
constexpr size_t kRecordsCountOffset = 57;
constexpr size_t kRecordsOffset = 61;

/// The bytes before batchLength's count starts (baseOffset and batchLength themselves).
constexpr size_t kLogOverhead = 12;
/// The smallest batchLength: a batch without records.
constexpr int32_t kMinBatchLength = static_cast<int32_t>(kRecordsOffset - kLogOverhead);

constexpr int8_t kMagic = 2;

constexpr int16_t kCompressionMask = 0x07;
constexpr int16_t kTimestampTypeMask = 0x08;
constexpr int16_t kTransactionalMask = 0x10;
constexpr int16_t kControlMask = 0x20;
constexpr int16_t kDeleteHorizonMask = 0x40;

/// The smallest record: every varint one byte, no key, value or headers.
constexpr size_t kMinRecordSize = 7;

}  // namespace higgins::kafka::batch_format
