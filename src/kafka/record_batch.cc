#include "kafka/record_batch.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <limits>

#include "kafka/big_endian.h"
#include "kafka/crc32c.h"
#include "kafka/record_batch_format.h"
#include "kafka/varint.h"

namespace higgins::kafka {
namespace {

using namespace batch_format;  // NOLINT(google-build-using-namespace): the layout's constants

constexpr size_t kMaxVarintBytes = 5;    // a VARINT holds 32 bits
constexpr size_t kMaxVarlongBytes = 10;  // a VARLONG holds 64 bits

std::string Hex(uint32_t v) {
  char buf[11];
  std::snprintf(buf, sizeof(buf), "0x%08x", v);
  return buf;
}

// Reads the fields of one record; every read fails (false) rather than pass the end.
class FieldReader {
 public:
  explicit FieldReader(std::string_view in) : in_(in) {}

  size_t remaining() const { return in_.size(); }

  bool Int8(int8_t* v) {
    if (in_.empty()) return false;
    *v = static_cast<int8_t>(in_[0]);
    in_.remove_prefix(1);
    return true;
  }
  bool Varint(int32_t* v) {
    int64_t wide = 0;
    const size_t n = GetVarint(in_, &wide, kMaxVarintBytes);
    if (n == 0 || wide < std::numeric_limits<int32_t>::min() ||
        wide > std::numeric_limits<int32_t>::max()) {
      return false;
    }
    *v = static_cast<int32_t>(wide);
    in_.remove_prefix(n);
    return true;
  }
  bool Varlong(int64_t* v) {
    const size_t n = GetVarint(in_, v, kMaxVarlongBytes);
    in_.remove_prefix(n);
    return n != 0;
  }
  bool Take(size_t n, std::string_view* out) {
    if (n > in_.size()) return false;
    *out = in_.substr(0, n);
    in_.remove_prefix(n);
    return true;
  }
  // A VARINT length then that many bytes; length -1 is null, other negative lengths are errors.
  bool NullableBytes(std::optional<std::string_view>* out) {
    int32_t length = 0;
    if (!Varint(&length) || length < -1) return false;
    if (length == -1) {
      out->reset();
      return true;
    }
    std::string_view bytes;
    if (!Take(static_cast<size_t>(length), &bytes)) return false;
    *out = bytes;
    return true;
  }

 private:
  std::string_view in_;
};

// The fields of a record after its length; `body` is exactly `length` bytes.
Status ParseRecordBody(std::string_view body, Record& record) {
  FieldReader r(body);
  int32_t header_count = 0;
  if (!r.Int8(&record.attributes) || !r.Varlong(&record.timestamp_delta) ||
      !r.Varint(&record.offset_delta) || !r.NullableBytes(&record.key) ||
      !r.NullableBytes(&record.value) || !r.Varint(&header_count)) {
    return Status::Corruption("malformed field or fields longer than the record length");
  }
  // A header takes two bytes at least: that bounds the vector before it is allocated.
  if (header_count < 0 || static_cast<size_t>(header_count) > r.remaining() / 2) {
    return Status::Corruption("header count " + std::to_string(header_count) +
                              " does not fit the record");
  }
  record.headers.resize(static_cast<size_t>(header_count));
  for (Header& header : record.headers) {
    int32_t key_length = 0;
    if (!r.Varint(&key_length) || key_length < 0) {
      return Status::Corruption("malformed or null header key");
    }
    if (!r.Take(static_cast<size_t>(key_length), &header.key) || !r.NullableBytes(&header.value)) {
      return Status::Corruption("header longer than the record length");
    }
  }
  if (r.remaining() != 0) {
    return Status::Corruption(std::to_string(r.remaining()) +
                              " bytes left after the fields the record length covers");
  }
  return Status::OK();
}

// Parses `count` records filling `section` exactly into batch.records.
Status ParseRecords(std::string_view section, int32_t count, RecordBatch& batch) {
  batch.records.reserve(std::min<size_t>(count, section.size() / kMinRecordSize));
  for (int32_t i = 0; i < count; ++i) {
    const std::string context = "record " + std::to_string(i);
    int64_t length = 0;
    const size_t n = GetVarint(section, &length, kMaxVarintBytes);
    if (n == 0) {
      return Status::Corruption(section.empty()
                                    ? "recordsCount is " + std::to_string(count) +
                                          " but the records end after " + std::to_string(i)
                                    : context + ": malformed length");
    }
    section.remove_prefix(n);
    if (length < 0 || static_cast<uint64_t>(length) > section.size()) {
      return Status::Corruption(context + ": length " + std::to_string(length) + " exceeds the " +
                                std::to_string(section.size()) + " bytes left");
    }
    Record& record = batch.records.emplace_back();
    HIGGINS_RETURN_IF_ERROR(ParseRecordBody(section.substr(0, static_cast<size_t>(length)), record)
                                .WithContext(context));
    section.remove_prefix(static_cast<size_t>(length));
    if (record.offset_delta != i) {
      return Status::Corruption(context + ": offset delta " + std::to_string(record.offset_delta) +
                                ", expected " + std::to_string(i));
    }
  }
  if (!section.empty()) {
    return Status::Corruption(std::to_string(section.size()) + " bytes left after the " +
                              std::to_string(count) + " records of recordsCount");
  }
  return Status::OK();
}

// Decodes the batch at the start of `in`; `*size` receives its size on the wire.
Status DecodeOne(std::string_view in, const DecodeLimits& limits, RecordBatch& batch,
                 size_t* size) {
  if (in.size() <= kMagicOffset) {
    return Status::Corruption("truncated batch: " + std::to_string(in.size()) + " bytes");
  }
  const auto magic = static_cast<int8_t>(in[kMagicOffset]);
  if (magic == 0 || magic == 1) {
    return Status::NotSupported("message format v0/v1 (magic " + std::to_string(magic) +
                                ") is not supported; use a client that writes record batches v2 "
                                "(Kafka 0.11+)");
  }
  if (magic != kMagic) return Status::Corruption("unknown magic " + std::to_string(magic));
  if (in.size() < kRecordsOffset) {
    return Status::Corruption("truncated batch header: " + std::to_string(in.size()) + " bytes");
  }
  const char* p = in.data();
  batch.batch_length = LoadBigEndian<int32_t>(p + kBatchLengthOffset);
  if (batch.batch_length < kMinBatchLength ||
      static_cast<size_t>(batch.batch_length) > in.size() - kLogOverhead) {
    return Status::Corruption("batchLength " + std::to_string(batch.batch_length) +
                              " does not fit the " + std::to_string(in.size()) + " bytes received");
  }
  *size = kLogOverhead + static_cast<size_t>(batch.batch_length);
  batch.bytes = in.substr(0, *size);
  batch.crc = LoadBigEndian<uint32_t>(p + kCrcOffset);
  const uint32_t actual = Crc32c(batch.bytes.substr(kAttributesOffset));
  if (actual != batch.crc) {
    return Status::Corruption("CRC mismatch: the batch says " + Hex(batch.crc) +
                              ", its bytes give " + Hex(actual));
  }
  batch.base_offset = LoadBigEndian<int64_t>(p + kBaseOffsetOffset);
  batch.partition_leader_epoch = LoadBigEndian<int32_t>(p + kPartitionLeaderEpochOffset);
  batch.magic = magic;
  batch.attributes = LoadBigEndian<int16_t>(p + kAttributesOffset);
  batch.last_offset_delta = LoadBigEndian<int32_t>(p + kLastOffsetDeltaOffset);
  batch.base_timestamp = LoadBigEndian<int64_t>(p + kBaseTimestampOffset);
  batch.max_timestamp = LoadBigEndian<int64_t>(p + kMaxTimestampOffset);
  batch.producer_id = LoadBigEndian<int64_t>(p + kProducerIdOffset);
  batch.producer_epoch = LoadBigEndian<int16_t>(p + kProducerEpochOffset);
  batch.base_sequence = LoadBigEndian<int32_t>(p + kBaseSequenceOffset);
  const auto count = LoadBigEndian<int32_t>(p + kRecordsCountOffset);

  const auto codec = static_cast<int>(batch.attributes & kCompressionMask);
  if (codec > static_cast<int>(Compression::kZstd)) {
    return Status::NotSupported("unknown compression codec " + std::to_string(codec));
  }
  if (count <= 0) return Status::Corruption("recordsCount " + std::to_string(count));
  if (static_cast<size_t>(count) > limits.max_records) {
    return Status::ResourceExhausted("recordsCount " + std::to_string(count) + " exceeds " +
                                     std::to_string(limits.max_records));
  }
  if (batch.last_offset_delta != count - 1) {
    return Status::Corruption("lastOffsetDelta " + std::to_string(batch.last_offset_delta) +
                              " with recordsCount " + std::to_string(count));
  }
  std::string_view section = batch.bytes.substr(kRecordsOffset);
  if (batch.compression() != Compression::kNone) {
    HIGGINS_ASSIGN_OR_RETURN(std::string decompressed, Decompress(batch.compression(), section,
                                                                  limits.max_decompressed_bytes));
    batch.storage = std::make_shared<const std::string>(std::move(decompressed));
    section = *batch.storage;
  }
  return ParseRecords(section, count, batch);
}

// The encoded size of a record's fields after its length.
size_t RecordBodySize(const RecordToWrite& r, int64_t timestamp_delta, int32_t offset_delta) {
  auto nullable = [](const std::optional<std::string_view>& b) {
    return b ? VarintSize(static_cast<int64_t>(b->size())) + b->size() : 1;
  };
  size_t size = 1 + VarintSize(timestamp_delta) + VarintSize(offset_delta) + nullable(r.key) +
                nullable(r.value) + VarintSize(static_cast<int64_t>(r.headers.size()));
  for (const Header& h : r.headers) {
    size += VarintSize(static_cast<int64_t>(h.key.size())) + h.key.size() + nullable(h.value);
  }
  return size;
}

void PutNullable(std::string& out, const std::optional<std::string_view>& bytes) {
  if (!bytes) {
    PutVarint(out, -1);
    return;
  }
  PutVarint(out, static_cast<int64_t>(bytes->size()));
  out.append(*bytes);
}

void PutRecord(std::string& out, const RecordToWrite& r, int64_t timestamp_delta,
               int32_t offset_delta, size_t body_size) {
  PutVarint(out, static_cast<int64_t>(body_size));
  out.push_back(0);  // attributes
  PutVarint(out, timestamp_delta);
  PutVarint(out, offset_delta);
  PutNullable(out, r.key);
  PutNullable(out, r.value);
  PutVarint(out, static_cast<int64_t>(r.headers.size()));
  for (const Header& h : r.headers) {
    PutVarint(out, static_cast<int64_t>(h.key.size()));
    out.append(h.key);
    PutNullable(out, h.value);
  }
}

// Records larger than this leave the per-thread scratch buffer to be freed after use.
constexpr size_t kMaxKeptScratch = 8 << 20;

}  // namespace

Result<std::vector<RecordBatch>> DecodeRecordBatches(std::string_view records_field,
                                                     const DecodeLimits& limits) {
  std::vector<RecordBatch> batches;
  for (size_t index = 0; !records_field.empty(); ++index) {
    RecordBatch& batch = batches.emplace_back();
    size_t size = 0;
    HIGGINS_RETURN_IF_ERROR(DecodeOne(records_field, limits, batch, &size)
                                .WithContext("batch " + std::to_string(index)));
    records_field.remove_prefix(size);
  }
  return batches;
}

Status AppendRecordBatch(const BatchToWrite& batch, std::string& out) {
  const auto& records = batch.records;
  if (records.empty()) return Status::InvalidArgument("a record batch needs a record");
  if (records.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    return Status::InvalidArgument("too many records for one batch");
  }
  const int64_t base_timestamp = records.front().timestamp;
  int64_t max_timestamp = base_timestamp;
  size_t records_size = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    max_timestamp = std::max(max_timestamp, records[i].timestamp);
    const size_t body =
        RecordBodySize(records[i], records[i].timestamp - base_timestamp, static_cast<int32_t>(i));
    records_size += VarintSize(static_cast<int64_t>(body)) + body;
  }

  int16_t attributes = static_cast<int16_t>(batch.compression);
  if (batch.log_append_time) {
    attributes |= kTimestampTypeMask;
    max_timestamp = *batch.log_append_time;
  }
  if (batch.transactional) attributes |= kTransactionalMask;

  const bool compressed = batch.compression != Compression::kNone;
  const size_t start = out.size();
  out.reserve(start + kRecordsOffset + (compressed ? 0 : records_size));
  out.resize(start + kRecordsOffset);
  char* h = out.data() + start;
  StoreBigEndian<int64_t>(h + kBaseOffsetOffset, batch.base_offset);
  StoreBigEndian<int32_t>(h + kPartitionLeaderEpochOffset, batch.partition_leader_epoch);
  h[kMagicOffset] = kMagic;
  StoreBigEndian<int16_t>(h + kAttributesOffset, attributes);
  StoreBigEndian<int32_t>(h + kLastOffsetDeltaOffset, static_cast<int32_t>(records.size() - 1));
  StoreBigEndian<int64_t>(h + kBaseTimestampOffset, base_timestamp);
  StoreBigEndian<int64_t>(h + kMaxTimestampOffset, max_timestamp);
  StoreBigEndian<int64_t>(h + kProducerIdOffset, batch.producer_id);
  StoreBigEndian<int16_t>(h + kProducerEpochOffset, batch.producer_epoch);
  StoreBigEndian<int32_t>(h + kBaseSequenceOffset, batch.base_sequence);
  StoreBigEndian<int32_t>(h + kRecordsCountOffset, static_cast<int32_t>(records.size()));

  thread_local std::string scratch;
  std::string& target = compressed ? scratch : out;
  if (compressed) {
    scratch.clear();
    scratch.reserve(records_size);
  }
  for (size_t i = 0; i < records.size(); ++i) {
    const int64_t delta = records[i].timestamp - base_timestamp;
    const auto offset_delta = static_cast<int32_t>(i);
    PutRecord(target, records[i], delta, offset_delta,
              RecordBodySize(records[i], delta, offset_delta));
  }
  if (compressed) {
    Status status = CompressAppend(batch.compression, scratch, out);
    if (scratch.capacity() > kMaxKeptScratch) std::string().swap(scratch);
    if (!status.ok()) {
      out.resize(start);
      return status;
    }
  }

  const size_t batch_length = out.size() - start - kLogOverhead;
  if (batch_length > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    out.resize(start);
    return Status::InvalidArgument("record batch over 2 GiB");
  }
  h = out.data() + start;
  StoreBigEndian<int32_t>(h + kBatchLengthOffset, static_cast<int32_t>(batch_length));
  const std::string_view covered(h + kAttributesOffset, out.size() - start - kAttributesOffset);
  StoreBigEndian<uint32_t>(h + kCrcOffset, Crc32c(covered));
  return Status::OK();
}

Result<std::string> EncodeRecordBatch(const BatchToWrite& batch) {
  std::string out;
  HIGGINS_RETURN_IF_ERROR(AppendRecordBatch(batch, out));
  return out;
}

void SetBaseOffset(std::span<char> batch, int64_t base_offset) {
  assert(batch.size() >= kRecordsOffset);
  StoreBigEndian<int64_t>(batch.data() + kBaseOffsetOffset, base_offset);
}

void SetPartitionLeaderEpoch(std::span<char> batch, int32_t epoch) {
  assert(batch.size() >= kRecordsOffset);
  StoreBigEndian<int32_t>(batch.data() + kPartitionLeaderEpochOffset, epoch);
}

}  // namespace higgins::kafka
