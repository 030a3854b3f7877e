#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "higgins/result.h"
#include "higgins/status.h"
#include "kafka/compression.h"
#include "kafka/record_batch_format.h"

namespace higgins::kafka {

// Record batches v2, the unit in which Kafka producers send and consumers receive records (Kafka
// documentation, "Message Format": "Record Batch", "Record", "Record Header"). The byte layout is
// in kafka/record_batch_format.h.

/// Bit 3 of the batch attributes: who set the records' timestamps.
enum class TimestampType : uint8_t { kCreateTime = 0, kLogAppendTime = 1 };

/// A record header. The key is never null on the wire; the value may be.
struct Header {
  std::string_view key;
  std::optional<std::string_view> value;
};

/// One record of a decoded batch. Its offset is the batch's base_offset + offset_delta and its
/// timestamp base_timestamp + timestamp_delta (milliseconds since the epoch).
struct Record {
  int8_t attributes = 0;  // unused by Kafka so far
  int64_t timestamp_delta = 0;
  int32_t offset_delta = 0;
  std::optional<std::string_view> key;    // nullopt = null key
  std::optional<std::string_view> value;  // nullopt = null value (a tombstone)
  std::vector<Header> headers;            // in wire order, duplicates kept
};

/// A decoded record batch v2. Keys, values and headers are views into `storage` when the batch
/// was compressed, and into the bytes given to DecodeRecordBatches otherwise (those bytes must
/// then outlive the batch). Copies share `storage`.
struct RecordBatch {
  int64_t base_offset = 0;
  int32_t batch_length = 0;  // bytes after this field
  int32_t partition_leader_epoch = -1;
  int8_t magic = 2;
  uint32_t crc = 0;
  int16_t attributes = 0;
  int32_t last_offset_delta = 0;
  int64_t base_timestamp = 0;  // milliseconds since the epoch
  int64_t max_timestamp = 0;   // milliseconds since the epoch
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  int32_t base_sequence = -1;
  std::vector<Record> records;

  /// The whole batch as received (baseOffset to the end), e.g. to store it unchanged.
  std::string_view bytes;
  /// The decompressed records section; null for an uncompressed batch.
  std::shared_ptr<const std::string> storage;

  Compression compression() const {
    return static_cast<Compression>(attributes & batch_format::kCompressionMask);
  }
  TimestampType timestamp_type() const {
    return (attributes & batch_format::kTimestampTypeMask) ? TimestampType::kLogAppendTime
                                                           : TimestampType::kCreateTime;
  }
  bool is_transactional() const { return (attributes & batch_format::kTransactionalMask) != 0; }
  bool is_control() const { return (attributes & batch_format::kControlMask) != 0; }
  /// The offset of the last record: base_offset + last_offset_delta.
  int64_t last_offset() const { return base_offset + last_offset_delta; }
};

/// Bounds on what one batch may make the decoder allocate.
struct DecodeLimits {
  size_t max_decompressed_bytes = 64 << 20;  // per batch, the records section after decompression
  size_t max_records = 1 << 20;              // per batch
};

/// Decodes the `records` field of a Produce request (or of a Fetch response): zero or more
/// complete record batches v2, back to back. Each batch is checked: magic 2, batchLength within
/// the input, CRC-32C over attributes..end, a known codec, recordsCount equal to the records
/// present, each record's length equal to its fields, offset deltas 0, 1, ..., n - 1 with
/// lastOffsetDelta n - 1, at least one record, header keys not null. Transactional and control
/// batches are decoded like the others (see is_transactional(), is_control()).
/// Errors: NotSupported for magic 0 or 1 (message sets) and for codecs 5-7; Corruption for
/// anything malformed or truncated, with "CRC mismatch" in the message for a bad checksum (Kafka's
/// CORRUPT_MESSAGE); ResourceExhausted past `limits`. The message names the batch's index.
Result<std::vector<RecordBatch>> DecodeRecordBatches(std::string_view records_field,
                                                     const DecodeLimits& limits = {});

/// A record to encode. `timestamp` is absolute (milliseconds since the epoch); the encoder
/// derives the deltas. Views must stay valid during the call only.
struct RecordToWrite {
  int64_t timestamp = 0;
  std::optional<std::string_view> key;
  std::optional<std::string_view> value;
  std::span<const Header> headers;
};

/// A batch to encode. Offsets are base_offset + index; base_timestamp is the first record's
/// timestamp and max_timestamp the largest (or `log_append_time` for both when it is set, with the
/// LogAppendTime attribute). partition_leader_epoch should be the leader's epoch (>= 0) in Fetch
/// responses. The producer fields stay -1 unless the batch came from an idempotent producer.
struct BatchToWrite {
  int64_t base_offset = 0;
  int32_t partition_leader_epoch = 0;
  Compression compression = Compression::kNone;
  std::optional<int64_t> log_append_time;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  int32_t base_sequence = -1;
  bool transactional = false;
  std::span<const RecordToWrite> records;  // at least one
};

/// Appends one encoded record batch v2 to `out`, compressed with `batch.compression`, with its
/// batchLength and CRC filled in. Uncompressed batches are written in place with one allocation at
/// most; compressed ones go through a per-thread scratch buffer. Errors: InvalidArgument for no
/// records or more than INT32_MAX bytes; the errors of CompressAppend.
Status AppendRecordBatch(const BatchToWrite& batch, std::string& out);

/// AppendRecordBatch into a new string.
Result<std::string> EncodeRecordBatch(const BatchToWrite& batch);

/// Rewrites the baseOffset of the encoded batch at the start of `batch` (a field outside the CRC,
/// so the checksum stays valid). `batch` must hold at least the batch header (61 bytes).
void SetBaseOffset(std::span<char> batch, int64_t base_offset);

/// Rewrites the partitionLeaderEpoch of the encoded batch at the start of `batch`, likewise.
void SetPartitionLeaderEpoch(std::span<char> batch, int32_t epoch);

}  // namespace higgins::kafka
