// Record batches v2: a batch assembled by hand from the documented layout, round trips through
// every codec, and the failures a broker must answer (bad CRC, truncation, old magic, counts and
// lengths that disagree, oversized varints, limits).
#include "kafka/record_batch.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kafka/big_endian.h"
#include "kafka/crc32c.h"
#include "kafka/record_batch_format.h"
#include "kafka/varint.h"

namespace higgins::kafka {
namespace {

// One record (timestamp 1000, key "k", value "v", header "h" = "x") with leader epoch -1 and no
// producer id, field by field; the CRC was computed by a bit-at-a-time CRC-32C written apart.
const std::string kGolden = std::string(
                                "\x00\x00\x00\x00\x00\x00\x00\x00"  // baseOffset 0
                                "\x00\x00\x00\x3e"                  // batchLength 62
                                "\xff\xff\xff\xff"                  // partitionLeaderEpoch -1
                                "\x02"                              // magic
                                "\x85\xd4\x93\x6f"                  // crc
                                "\x00\x00"                          // attributes
                                "\x00\x00\x00\x00"                  // lastOffsetDelta 0
                                "\x00\x00\x00\x00\x00\x00\x03\xe8"  // baseTimestamp 1000
                                "\x00\x00\x00\x00\x00\x00\x03\xe8"  // maxTimestamp 1000
                                "\xff\xff\xff\xff\xff\xff\xff\xff"  // producerId -1
                                "\xff\xff"                          // producerEpoch -1
                                "\xff\xff\xff\xff"                  // baseSequence -1
                                "\x00\x00\x00\x01",                 // recordsCount 1
                                61) +
                            std::string(
                                "\x18"    // record length 12
                                "\x00"    // attributes
                                "\x00"    // timestampDelta 0
                                "\x00"    // offsetDelta 0
                                "\x02k"   // key
                                "\x02v"   // value
                                "\x02"    // one header
                                "\x02h"   // header key
                                "\x02x",  // header value
                                13);

// A batch around a records section written by the test, with a correct length and CRC.
std::string Seal(std::string_view section, int32_t count, int16_t attributes = 0,
                 int32_t last_offset_delta = -2) {
  std::string b(batch_format::kRecordsOffset, '\0');
  StoreBigEndian<int64_t>(&b[0], 7);
  StoreBigEndian<int32_t>(&b[12], 3);
  b[16] = 2;
  StoreBigEndian<int16_t>(&b[21], attributes);
  StoreBigEndian<int32_t>(&b[23], last_offset_delta == -2 ? count - 1 : last_offset_delta);
  StoreBigEndian<int64_t>(&b[27], 5000);
  StoreBigEndian<int64_t>(&b[35], 5000);
  StoreBigEndian<int64_t>(&b[43], -1);
  StoreBigEndian<int16_t>(&b[51], -1);
  StoreBigEndian<int32_t>(&b[53], -1);
  StoreBigEndian<int32_t>(&b[57], count);
  b.append(section);
  StoreBigEndian<int32_t>(&b[8], static_cast<int32_t>(b.size() - 12));
  StoreBigEndian<uint32_t>(&b[17], Crc32c(std::string_view(b).substr(21)));
  return b;
}

// A record without key, value or headers: offset delta `delta`, timestamp delta 0.
std::string EmptyRecord(int32_t delta) {
  std::string body("\x00\x00", 2);
  PutVarint(body, delta);
  body += std::string("\x01\x01\x00", 3);  // null key, null value, no headers
  std::string r;
  PutVarint(r, static_cast<int64_t>(body.size()));
  return r + body;
}

Status DecodeStatus(std::string_view bytes, const DecodeLimits& limits = {}) {
  return DecodeRecordBatches(bytes, limits).status();
}

TEST(RecordBatchTest, DecodesTheHandAssembledBatch) {
  auto batches = DecodeRecordBatches(kGolden);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ASSERT_EQ(batches->size(), 1u);
  const RecordBatch& b = (*batches)[0];
  EXPECT_EQ(b.base_offset, 0);
  EXPECT_EQ(b.batch_length, 62);
  EXPECT_EQ(b.partition_leader_epoch, -1);
  EXPECT_EQ(b.magic, 2);
  EXPECT_EQ(b.crc, 0x85d4936fu);
  EXPECT_EQ(b.attributes, 0);
  EXPECT_EQ(b.compression(), Compression::kNone);
  EXPECT_EQ(b.timestamp_type(), TimestampType::kCreateTime);
  EXPECT_FALSE(b.is_transactional());
  EXPECT_FALSE(b.is_control());
  EXPECT_EQ(b.last_offset_delta, 0);
  EXPECT_EQ(b.base_timestamp, 1000);
  EXPECT_EQ(b.max_timestamp, 1000);
  EXPECT_EQ(b.producer_id, -1);
  EXPECT_EQ(b.producer_epoch, -1);
  EXPECT_EQ(b.base_sequence, -1);
  EXPECT_EQ(b.bytes, kGolden);
  EXPECT_EQ(b.storage, nullptr);
  ASSERT_EQ(b.records.size(), 1u);
  const Record& r = b.records[0];
  EXPECT_EQ(r.attributes, 0);
  EXPECT_EQ(r.timestamp_delta, 0);
  EXPECT_EQ(r.offset_delta, 0);
  EXPECT_EQ(r.key, "k");
  EXPECT_EQ(r.value, "v");
  ASSERT_EQ(r.headers.size(), 1u);
  EXPECT_EQ(r.headers[0].key, "h");
  EXPECT_EQ(r.headers[0].value, "x");
}

TEST(RecordBatchTest, EncoderWritesTheHandAssembledBytes) {
  const Header headers[] = {{"h", "x"}};
  const RecordToWrite records[] = {{1000, "k", "v", headers}};
  BatchToWrite batch;
  batch.partition_leader_epoch = -1;
  batch.records = records;
  EXPECT_EQ(*EncodeRecordBatch(batch), kGolden);
}

TEST(RecordBatchTest, EveryCodecRoundTripsNullsHeadersAndTimestamps) {
  const Header h0[] = {{"dup", "1"}, {"dup", std::nullopt}, {"", ""}};
  const std::string big(5000, 'z');
  const RecordToWrite records[] = {
      {2000, "key-0", "value-0", h0},
      {1500, std::nullopt, "no key", {}},  // earlier than the first: a negative delta
      {2600, "tombstone", std::nullopt, {}},
      {2100, "", big, {}},
  };
  for (Compression codec : {Compression::kNone, Compression::kGzip, Compression::kSnappy,
                            Compression::kLz4, Compression::kZstd}) {
    BatchToWrite batch;
    batch.base_offset = 1234;
    batch.partition_leader_epoch = 9;
    batch.compression = codec;
    batch.producer_id = 77;
    batch.producer_epoch = 3;
    batch.base_sequence = 40;
    batch.records = records;
    const std::string bytes = *EncodeRecordBatch(batch);
    auto decoded = DecodeRecordBatches(bytes);
    ASSERT_TRUE(decoded.ok()) << CompressionName(codec) << ": " << decoded.status().ToString();
    ASSERT_EQ(decoded->size(), 1u);
    const RecordBatch& b = (*decoded)[0];
    EXPECT_EQ(b.compression(), codec);
    EXPECT_EQ(b.storage == nullptr, codec == Compression::kNone);
    EXPECT_EQ(b.base_offset, 1234);
    EXPECT_EQ(b.last_offset(), 1237);
    EXPECT_EQ(b.partition_leader_epoch, 9);
    EXPECT_EQ(b.batch_length, static_cast<int32_t>(bytes.size() - 12));
    EXPECT_EQ(b.base_timestamp, 2000);
    EXPECT_EQ(b.max_timestamp, 2600);
    EXPECT_EQ(b.producer_id, 77);
    EXPECT_EQ(b.producer_epoch, 3);
    EXPECT_EQ(b.base_sequence, 40);
    ASSERT_EQ(b.records.size(), 4u);
    EXPECT_EQ(b.records[0].key, "key-0");
    EXPECT_EQ(b.records[0].value, "value-0");
    ASSERT_EQ(b.records[0].headers.size(), 3u);
    EXPECT_EQ(b.records[0].headers[0].key, "dup");
    EXPECT_EQ(b.records[0].headers[0].value, "1");
    EXPECT_EQ(b.records[0].headers[1].key, "dup");
    EXPECT_EQ(b.records[0].headers[1].value, std::nullopt);
    EXPECT_EQ(b.records[0].headers[2].key, "");
    EXPECT_EQ(b.records[0].headers[2].value, "");
    EXPECT_EQ(b.records[1].timestamp_delta, -500);
    EXPECT_EQ(b.records[1].key, std::nullopt);
    EXPECT_EQ(b.records[1].value, "no key");
    EXPECT_EQ(b.records[2].timestamp_delta, 600);
    EXPECT_EQ(b.records[2].value, std::nullopt);
    EXPECT_EQ(b.records[3].key, "");
    EXPECT_EQ(b.records[3].value, big);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(b.records[i].offset_delta, i);
  }
}

TEST(RecordBatchTest, DecodedViewsSurviveMovingTheBatches) {
  const RecordToWrite records[] = {{1, "k", "v", {}}};
  BatchToWrite batch;
  batch.compression = Compression::kLz4;
  batch.records = records;
  const std::string bytes = *EncodeRecordBatch(batch);
  std::vector<RecordBatch> moved = *DecodeRecordBatches(bytes);
  RecordBatch copy = moved[0];
  moved.clear();
  EXPECT_EQ(copy.records[0].key, "k");
  EXPECT_EQ(copy.records[0].value, "v");
}

TEST(RecordBatchTest, SeveralBatchesBackToBackAndAnEmptyField) {
  const RecordToWrite one[] = {{1, "a", "1", {}}};
  const RecordToWrite two[] = {{2, "b", "2", {}}, {3, "c", "3", {}}};
  std::string field;
  BatchToWrite batch;
  batch.records = one;
  ASSERT_TRUE(AppendRecordBatch(batch, field).ok());
  batch.base_offset = 1;
  batch.compression = Compression::kZstd;
  batch.records = two;
  ASSERT_TRUE(AppendRecordBatch(batch, field).ok());
  auto decoded = DecodeRecordBatches(field);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ASSERT_EQ(decoded->size(), 2u);
  EXPECT_EQ((*decoded)[0].records[0].key, "a");
  EXPECT_EQ((*decoded)[1].base_offset, 1);
  EXPECT_EQ((*decoded)[1].records[1].value, "3");
  EXPECT_EQ(DecodeRecordBatches("")->size(), 0u);
}

TEST(RecordBatchTest, CrcMismatch) {
  std::string bad = kGolden;
  bad.back() = 'y';  // the header value
  const uint32_t actual = Crc32c(std::string_view(bad).substr(21));
  char hex[9];
  std::snprintf(hex, sizeof(hex), "%08x", actual);
  EXPECT_EQ(DecodeStatus(bad),
            Status::Corruption(std::string("batch 0: CRC mismatch: the batch says 0x85d4936f, its "
                                           "bytes give 0x") +
                               hex));
}

TEST(RecordBatchTest, TheBaseOffsetAndLeaderEpochAreOutsideTheCrc) {
  std::string bytes = kGolden;
  SetBaseOffset(bytes, 9000000000LL);
  SetPartitionLeaderEpoch(bytes, 12);
  auto decoded = DecodeRecordBatches(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ((*decoded)[0].base_offset, 9000000000LL);
  EXPECT_EQ((*decoded)[0].partition_leader_epoch, 12);
  EXPECT_EQ((*decoded)[0].crc, 0x85d4936fu);
}

TEST(RecordBatchTest, TruncatedAtEveryByteIsCorruption) {
  const RecordToWrite records[] = {{1, "k", "v", {}}};
  BatchToWrite batch;
  batch.records = records;
  for (Compression codec : {Compression::kNone, Compression::kGzip}) {
    batch.compression = codec;
    const std::string whole = kGolden + *EncodeRecordBatch(batch);
    for (size_t n = 1; n < whole.size(); ++n) {
      if (n == kGolden.size()) continue;  // one whole batch
      const Status s = DecodeStatus(std::string_view(whole).substr(0, n));
      EXPECT_EQ(s.code(), StatusCode::kCorruption) << n << " " << s.ToString();
    }
  }
  EXPECT_EQ(DecodeStatus(kGolden.substr(0, 10)),
            Status::Corruption("batch 0: truncated batch: 10 bytes"));
  EXPECT_EQ(DecodeStatus(kGolden.substr(0, 40)),
            Status::Corruption("batch 0: truncated batch header: 40 bytes"));
  EXPECT_EQ(DecodeStatus(kGolden.substr(0, 70)),
            Status::Corruption("batch 0: batchLength 62 does not fit the 70 bytes received"));
}

TEST(RecordBatchTest, OldMessageFormatsAreNotSupported) {
  for (char magic : {'\0', '\1'}) {
    std::string message_set = kGolden;  // a v0/v1 message keeps its magic at byte 16 too
    message_set[16] = magic;
    EXPECT_EQ(DecodeStatus(message_set),
              Status::NotSupported("batch 0: message format v0/v1 (magic " + std::to_string(magic) +
                                   ") is not supported; use a client that writes record batches "
                                   "v2 (Kafka 0.11+)"));
  }
  std::string future = kGolden;
  future[16] = 3;
  EXPECT_EQ(DecodeStatus(future), Status::Corruption("batch 0: unknown magic 3"));
}

TEST(RecordBatchTest, BatchLengthBelowTheHeader) {
  std::string bytes = kGolden;
  StoreBigEndian<int32_t>(&bytes[8], 48);
  EXPECT_EQ(DecodeStatus(bytes),
            Status::Corruption("batch 0: batchLength 48 does not fit the 74 bytes received"));
}

TEST(RecordBatchTest, RecordCountMismatch) {
  const std::string two = EmptyRecord(0) + EmptyRecord(1);
  EXPECT_EQ(DecodeRecordBatches(Seal(two, 2))->at(0).records.size(), 2u);
  EXPECT_EQ(DecodeStatus(Seal(two, 3)),
            Status::Corruption("batch 0: recordsCount is 3 but the records end after 2"));
  EXPECT_EQ(DecodeStatus(Seal(two, 1)),
            Status::Corruption("batch 0: 7 bytes left after the 1 records of recordsCount"));
  EXPECT_EQ(DecodeStatus(Seal("", 0)), Status::Corruption("batch 0: recordsCount 0"));
  EXPECT_EQ(DecodeStatus(Seal(two, -1)), Status::Corruption("batch 0: recordsCount -1"));
  EXPECT_EQ(DecodeStatus(Seal(two, 2, 0, 5)),
            Status::Corruption("batch 0: lastOffsetDelta 5 with recordsCount 2"));
}

TEST(RecordBatchTest, OffsetDeltasMustCountFromZero) {
  EXPECT_EQ(DecodeStatus(Seal(EmptyRecord(0) + EmptyRecord(0), 2)),
            Status::Corruption("batch 0: record 1: offset delta 0, expected 1"));
  EXPECT_EQ(DecodeStatus(Seal(EmptyRecord(1), 1)),
            Status::Corruption("batch 0: record 0: offset delta 1, expected 0"));
}

TEST(RecordBatchTest, RecordLengthsThatDisagreeWithTheFields) {
  // Six fields of one byte each; the length says 7: one byte is left over.
  const std::string longer("\x0e\x00\x00\x00\x01\x01\x00\x00", 8);
  EXPECT_EQ(DecodeStatus(Seal(longer, 1)),
            Status::Corruption("batch 0: record 0: 1 bytes left after the fields the record "
                               "length covers"));
  // The length says 5: the header count falls outside.
  const std::string shorter("\x0a\x00\x00\x00\x01\x01\x00", 7);
  EXPECT_EQ(DecodeStatus(Seal(shorter, 1)),
            Status::Corruption("batch 0: record 0: malformed field or fields longer than the "
                               "record length"));
  const std::string past_end("\x40\x00\x00\x00\x01\x01\x00", 7);  // length 32
  EXPECT_EQ(DecodeStatus(Seal(past_end, 1)),
            Status::Corruption("batch 0: record 0: length 32 exceeds the 6 bytes left"));
  const std::string negative("\x03\x00\x00\x00\x01\x01\x00", 7);  // length -2
  EXPECT_EQ(DecodeStatus(Seal(negative, 1)),
            Status::Corruption("batch 0: record 0: length -2 exceeds the 6 bytes left"));
}

TEST(RecordBatchTest, VarintOverflow) {
  // A length of six bytes: more than a VARINT may take.
  const std::string long_length("\x80\x80\x80\x80\x80\x01", 6);
  EXPECT_EQ(DecodeStatus(Seal(long_length, 1)),
            Status::Corruption("batch 0: record 0: malformed length"));
  // A key length of five bytes whose value (4294967295) passes INT32_MAX.
  const std::string body = std::string("\x00\x00\x00\xfe\xff\xff\xff\x1f\x01\x00", 10);
  std::string record;
  PutVarint(record, static_cast<int64_t>(body.size()));
  EXPECT_EQ(DecodeStatus(Seal(record + body, 1)),
            Status::Corruption("batch 0: record 0: malformed field or fields longer than the "
                               "record length"));
  // A header count far beyond what the record holds.
  const std::string headers = std::string("\x00\x00\x00\x01\x01\xfe\xff\xff\xff\x0f", 10);
  record.clear();
  PutVarint(record, static_cast<int64_t>(headers.size()));
  EXPECT_EQ(DecodeStatus(Seal(record + headers, 1)),
            Status::Corruption("batch 0: record 0: header count 2147483647 does not fit the "
                               "record"));
}

TEST(RecordBatchTest, NullHeaderKeyIsCorruption) {
  const std::string body("\x00\x00\x00\x01\x01\x02\x01\x01", 8);  // one header, key length -1
  std::string record;
  PutVarint(record, static_cast<int64_t>(body.size()));
  EXPECT_EQ(DecodeStatus(Seal(record + body, 1)),
            Status::Corruption("batch 0: record 0: malformed or null header key"));
}

TEST(RecordBatchTest, LimitsAreResourceExhausted) {
  const std::string three = EmptyRecord(0) + EmptyRecord(1) + EmptyRecord(2);
  DecodeLimits limits;
  limits.max_records = 2;
  EXPECT_EQ(DecodeStatus(Seal(three, 3), limits),
            Status::ResourceExhausted("batch 0: recordsCount 3 exceeds 2"));

  // A bomb: one record whose 16 MiB value of zeros gzip shrinks to about 16 KiB.
  const std::string zeros(16 << 20, '\0');
  const RecordToWrite records[] = {{1, std::nullopt, zeros, {}}};
  BatchToWrite batch;
  batch.compression = Compression::kGzip;
  batch.records = records;
  const std::string bomb = *EncodeRecordBatch(batch);
  EXPECT_LT(bomb.size(), 100000u);
  limits = DecodeLimits{};
  limits.max_decompressed_bytes = 1 << 20;
  EXPECT_EQ(DecodeStatus(bomb, limits),
            Status::ResourceExhausted("batch 0: gzip: decompressed data exceeds 1048576 bytes"));
}

TEST(RecordBatchTest, GarbageRecordsForEveryCodec) {
  for (int codec = 1; codec <= 4; ++codec) {
    const Status s =
        DecodeStatus(Seal("definitely not compressed", 1, static_cast<int16_t>(codec)));
    EXPECT_EQ(s.code(), StatusCode::kCorruption) << s.ToString();
    EXPECT_EQ(
        s.message().rfind(
            "batch 0: " + std::string(CompressionName(static_cast<Compression>(codec))) + ": ", 0),
        0u)
        << s.message();
  }
  EXPECT_EQ(DecodeStatus(Seal(EmptyRecord(0), 1, 6)),
            Status::NotSupported("batch 0: unknown compression codec 6"));
}

TEST(RecordBatchTest, TransactionalAndControlBatchesAreDecodedAndFlagged) {
  // A control batch's record (an end-transaction marker) has a key and value like any other.
  const std::string body("\x00\x00\x00\x08\x00\x00\x00\x01\x0c\x00\x00\x00\x00\x00\x05\x00", 16);
  std::string record;
  PutVarint(record, static_cast<int64_t>(body.size()));
  const std::string bytes = Seal(record + body, 1, 0x30);
  auto decoded = DecodeRecordBatches(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  const RecordBatch& b = (*decoded)[0];
  EXPECT_TRUE(b.is_transactional());
  EXPECT_TRUE(b.is_control());
  EXPECT_EQ(b.base_offset, 7);
  EXPECT_EQ(b.partition_leader_epoch, 3);
  EXPECT_EQ(b.records[0].key, std::string_view("\x00\x00\x00\x01", 4));
  EXPECT_EQ(b.records[0].value, std::string_view("\x00\x00\x00\x00\x00\x05", 6));
}

TEST(RecordBatchTest, EncoderFlagsLogAppendTimeAndTransactions) {
  const RecordToWrite records[] = {{10, "k", "v", {}}, {20, "k", "v", {}}};
  BatchToWrite batch;
  batch.records = records;
  batch.log_append_time = 99;
  batch.transactional = true;
  const std::string bytes = *EncodeRecordBatch(batch);
  auto decoded = DecodeRecordBatches(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  const RecordBatch& b = (*decoded)[0];
  EXPECT_EQ(b.timestamp_type(), TimestampType::kLogAppendTime);
  EXPECT_TRUE(b.is_transactional());
  EXPECT_FALSE(b.is_control());
  EXPECT_EQ(b.attributes, 0x18);
  EXPECT_EQ(b.base_timestamp, 10);
  EXPECT_EQ(b.max_timestamp, 99);
  EXPECT_EQ(b.records[1].timestamp_delta, 10);
}

TEST(RecordBatchTest, EncoderRefusesAnEmptyBatch) {
  BatchToWrite batch;
  std::string out = "keep";
  EXPECT_EQ(AppendRecordBatch(batch, out),
            Status::InvalidArgument("a record batch needs a record"));
  EXPECT_EQ(out, "keep");
}

}  // namespace
}  // namespace higgins::kafka
