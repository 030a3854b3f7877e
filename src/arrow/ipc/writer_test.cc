#include "higgins/arrow/ipc/writer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <random>

#include "arrow/ipc/compression.h"
#include "arrow/ipc/framing.h"
#include "arrow/ipc/metadata.h"
#include "higgins/arrow/ipc/reader.h"
#include "arrow/ipc/test_util.h"
#include "higgins/bit_util.h"

namespace higgins::arrow::ipc {
namespace {

using testing::AllTypesBatch;
using testing::AllTypesSchema;
using testing::SimpleBatch;
using testing::SimpleSchema;

void ExpectBatchesEqual(const std::vector<RecordBatch>& expected,
                        const std::vector<RecordBatch>& actual) {
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_TRUE(expected[i].Equals(actual[i])) << "batch " << i;
  }
}

ReadResult RoundTrip(const SchemaPtr& schema, const std::vector<RecordBatch>& batches, bool file,
                     const WriteOptions& options = {}) {
  auto bytes = file ? WriteFile(schema, batches, options) : WriteStream(schema, batches, options);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  if (!bytes.ok()) return {};
  auto read = file ? ReadFile(*bytes) : ReadStream(*bytes);
  EXPECT_TRUE(read.ok()) << read.status().ToString();
  return read.ok() ? std::move(read).value() : ReadResult{};
}

// One decoded message of a stream, as the writer laid it out.
struct WalkedMessage {
  int64_t offset;
  MessageMetadata metadata;
  const uint8_t* body;
};

// Walks a stream's framing, checking alignment of every message along the way.
std::vector<WalkedMessage> WalkStream(const Buffer& stream) {
  std::vector<WalkedMessage> out;
  size_t pos = 0;
  while (pos + 8 <= stream.size()) {
    EXPECT_EQ(pos % 8, 0u);
    EXPECT_EQ(bit_util::LoadLE<uint32_t>(stream.data() + pos), kContinuationMarker);
    const auto size = bit_util::LoadLE<int32_t>(stream.data() + pos + 4);
    if (size == 0) break;
    EXPECT_EQ((8 + size) % 8, 0);
    const Buffer meta = Buffer::Copy(stream.span().subspan(pos + 8, static_cast<size_t>(size)));
    auto decoded = DecodeMessage(meta.span(), IpcLimits{});
    EXPECT_TRUE(decoded.ok()) << decoded.status().ToString();
    if (!decoded.ok()) break;
    EXPECT_EQ(decoded->body_length % 8, 0);
    out.push_back({static_cast<int64_t>(pos), *decoded, stream.data() + pos + 8 + size});
    pos += 8 + static_cast<size_t>(size) + static_cast<size_t>(decoded->body_length);
  }
  EXPECT_EQ(pos + 8, stream.size()) << "stream must end with exactly one end-of-stream marker";
  return out;
}

TEST(WriterTest, RoundTripsEveryTypeWithNullsInStreamAndFile) {
  const RecordBatch batch = AllTypesBatch(37);
  for (bool file : {false, true}) {
    const ReadResult read = RoundTrip(AllTypesSchema(), {batch}, file);
    ASSERT_NE(read.schema, nullptr);
    EXPECT_EQ(*read.schema, *AllTypesSchema()) << "schema, nullability and metadata survive";
    ExpectBatchesEqual({batch}, read.batches);
  }
}

TEST(WriterTest, RoundTripsSlicesAtEveryBitOffset) {
  const RecordBatch batch = AllTypesBatch(50);
  std::vector<RecordBatch> slices;
  for (int64_t offset : {0, 1, 3, 7, 8, 9, 13, 31}) slices.push_back(batch.Slice(offset, 17));
  slices.push_back(batch.Slice(49, 1));
  slices.push_back(batch.Slice(20, 0));
  for (bool file : {false, true}) {
    const ReadResult read = RoundTrip(AllTypesSchema(), slices, file);
    ExpectBatchesEqual(slices, read.batches);
  }
}

TEST(WriterTest, SlicedVarBinaryOffsetsAreRebasedToZero) {
  const RecordBatch slice = SimpleBatch(40).Slice(11, 20);
  const ReadResult read = RoundTrip(SimpleSchema(), {slice}, false);
  ASSERT_EQ(read.batches.size(), 1u);
  const ArrayData& names = read.batches[0].column(1).data();
  EXPECT_EQ(names.offset, 0);
  EXPECT_EQ(bit_util::LoadLE<int32_t>(names.buffers[1].data()), 0);
  EXPECT_TRUE(read.batches[0].Equals(slice));
}

TEST(WriterTest, MultipleBatchesKeepTheirOrder) {
  std::vector<RecordBatch> batches;
  for (int i = 0; i < 5; ++i) batches.push_back(AllTypesBatch(10 + i, i));
  for (bool file : {false, true}) {
    ExpectBatchesEqual(batches, RoundTrip(AllTypesSchema(), batches, file).batches);
  }
}

TEST(WriterTest, SchemaOnlyStreamHasNoBatches) {
  for (bool file : {false, true}) {
    const ReadResult read = RoundTrip(AllTypesSchema(), {}, file);
    ASSERT_NE(read.schema, nullptr);
    EXPECT_EQ(*read.schema, *AllTypesSchema());
    EXPECT_TRUE(read.batches.empty());
  }
}

TEST(WriterTest, AnEncodedSchemaWritesTheSameBytesAsTheSchema) {
  auto encoded = EncodedSchema::Make(AllTypesSchema());
  ASSERT_TRUE(encoded.ok()) << encoded.status().ToString();
  const RecordBatch batch = AllTypesBatch(7, 2);
  for (int i = 0; i < 2; ++i) {  // the encoded schema serves writer after writer
    StreamWriter writer(*encoded);
    ASSERT_TRUE(writer.status().ok());
    ASSERT_TRUE(writer.WriteBatch(batch.Slice(1, 5)).ok());
    auto bytes = writer.Finish();
    ASSERT_TRUE(bytes.ok());
    auto expected = WriteStream(AllTypesSchema(), {batch.Slice(1, 5)});
    ASSERT_TRUE(expected.ok());
    ASSERT_EQ(bytes->size(), expected->size());
    EXPECT_EQ(std::memcmp(bytes->data(), expected->data(), bytes->size()), 0);
  }
  // Limits are checked when the schema is encoded.
  WriteOptions tight;
  tight.limits.max_fields = 1;
  EXPECT_EQ(EncodedSchema::Make(AllTypesSchema(), tight).status().code(),
            StatusCode::kResourceExhausted);
}

TEST(WriterTest, ZeroRowBatchRoundTrips) {
  const RecordBatch empty = AllTypesBatch(0);
  for (bool file : {false, true}) {
    const ReadResult read = RoundTrip(AllTypesSchema(), {empty, AllTypesBatch(3)}, file);
    ASSERT_EQ(read.batches.size(), 2u);
    EXPECT_EQ(read.batches[0].num_rows(), 0);
    EXPECT_TRUE(read.batches[0].Equals(empty));
  }
}

TEST(WriterTest, ZeroColumnBatchKeepsItsRowCount) {
  const SchemaPtr schema = MakeSchema({});
  auto batch = RecordBatch::Make(schema, 12, {});
  ASSERT_TRUE(batch.ok());
  const ReadResult read = RoundTrip(schema, {*batch}, false);
  ASSERT_EQ(read.batches.size(), 1u);
  EXPECT_EQ(read.batches[0].num_rows(), 12);
}

class CompressedWriterTest : public ::testing::TestWithParam<Compression> {};

TEST_P(CompressedWriterTest, RoundTripsEveryType) {
  WriteOptions options;
  options.compression = GetParam();
  std::vector<RecordBatch> batches = {AllTypesBatch(200), AllTypesBatch(0),
                                      AllTypesBatch(100).Slice(3, 50)};
  for (bool file : {false, true}) {
    ExpectBatchesEqual(batches, RoundTrip(AllTypesSchema(), batches, file, options).batches);
  }
}

TEST_P(CompressedWriterTest, IncompressibleBufferIsStoredRaw) {
  std::mt19937_64 rng(7);
  std::vector<std::optional<int64_t>> values;
  for (int i = 0; i < 4096; ++i) values.push_back(static_cast<int64_t>(rng()));
  const SchemaPtr schema = MakeSchema({Field("noise", DataType::Int64(), false)});
  auto batch =
      RecordBatch::Make(schema, 4096, {testing::MakePrimitive<int64_t>(DataType::Int64(), values)});
  ASSERT_TRUE(batch.ok());
  WriteOptions options;
  options.compression = GetParam();
  auto bytes = WriteStream(schema, {*batch}, options);
  ASSERT_TRUE(bytes.ok());

  const auto messages = WalkStream(*bytes);
  ASSERT_EQ(messages.size(), 2u);
  const RecordBatchHeader& header = messages[1].metadata.batch;
  EXPECT_EQ(header.compression, GetParam());
  ASSERT_EQ(header.buffers.size(), 2u);
  EXPECT_EQ(header.buffers[0].length, 0) << "no validity bitmap without nulls";
  EXPECT_EQ(header.buffers[1].length, 8 + 4096 * 8);
  EXPECT_EQ(bit_util::LoadLE<int64_t>(messages[1].body + header.buffers[1].offset), -1);

  auto read = ReadStream(*bytes);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_TRUE(read->batches[0].Equals(*batch));
}

TEST_P(CompressedWriterTest, BufferLargerThanReadersDecompressIsStoredRaw) {
  // Compressible, but readers with these limits refuse to decompress 8000 bytes into a buffer.
  std::vector<std::optional<int64_t>> zeros(1000, int64_t{0});
  const SchemaPtr schema = MakeSchema({Field("z", DataType::Int64(), false)});
  auto batch =
      RecordBatch::Make(schema, 1000, {testing::MakePrimitive<int64_t>(DataType::Int64(), zeros)});
  ASSERT_TRUE(batch.ok());
  WriteOptions options;
  options.compression = GetParam();
  options.limits.max_decompressed_buffer_bytes = 4096;
  auto bytes = WriteStream(schema, {*batch}, options);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  const auto messages = WalkStream(*bytes);
  ASSERT_EQ(messages.size(), 2u);
  const RecordBatchHeader& header = messages[1].metadata.batch;
  EXPECT_EQ(bit_util::LoadLE<int64_t>(messages[1].body + header.buffers[1].offset), -1);

  ReadOptions read_options;
  read_options.limits = options.limits;
  auto read = ReadStream(*bytes, read_options);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_TRUE(read->batches[0].Equals(*batch));
}

INSTANTIATE_TEST_SUITE_P(Codecs, CompressedWriterTest,
                         ::testing::Values(Compression::kLz4Frame, Compression::kZstd),
                         [](const auto& info) { return std::string(CompressionName(info.param)); });

TEST(WriterTest, MessagesAreAlignedAndValidityIsOmittedWithoutNulls) {
  auto bytes = WriteStream(SimpleSchema(), {SimpleBatch(3), SimpleBatch(9)});
  ASSERT_TRUE(bytes.ok());
  const auto messages = WalkStream(*bytes);
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[0].metadata.kind, MessageKind::kSchema);
  EXPECT_EQ(messages[0].metadata.version, kMetadataV5);
  // SimpleBatch(3) has no null names: both validity buffers are zero-length.
  const RecordBatchHeader& first = messages[1].metadata.batch;
  ASSERT_EQ(first.buffers.size(), 5u);
  EXPECT_EQ(first.buffers[0].length, 0);
  EXPECT_EQ(first.buffers[2].length, 0);
  for (const BufferRegion& region : first.buffers) EXPECT_EQ(region.offset % 8, 0);
  EXPECT_EQ(first.nodes, (std::vector<FieldNode>{{3, 0}, {3, 0}}));
  EXPECT_EQ(messages[2].metadata.batch.nodes[1], (FieldNode{9, 2}));
}

TEST(WriterTest, FileBlocksPointAtContinuationMarkers) {
  auto bytes = WriteFile(SimpleSchema(), {SimpleBatch(5), SimpleBatch(6)});
  ASSERT_TRUE(bytes.ok());
  const Buffer& file = *bytes;
  EXPECT_EQ(std::memcmp(file.data(), "ARROW1\0\0", 8), 0);
  EXPECT_EQ(file.view().substr(file.size() - 6), "ARROW1");
  const auto footer_length = bit_util::LoadLE<int32_t>(file.data() + file.size() - 10);
  const Buffer footer = Buffer::Copy(file.span().subspan(
      file.size() - 10 - static_cast<size_t>(footer_length), static_cast<size_t>(footer_length)));
  auto decoded = DecodeFooter(footer.span(), IpcLimits{});
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ASSERT_EQ(decoded->record_batches.size(), 2u);
  for (const FileBlock& block : decoded->record_batches) {
    EXPECT_EQ(block.offset % 8, 0);
    EXPECT_EQ(block.metadata_length % 8, 0);
    EXPECT_EQ(bit_util::LoadLE<uint32_t>(file.data() + block.offset), kContinuationMarker);
    const auto size = bit_util::LoadLE<int32_t>(file.data() + block.offset + 4);
    EXPECT_EQ(block.metadata_length, 8 + size) << "metaDataLength includes the prefix";
  }
}

TEST(WriterTest, TakeBytesConcatenatesToTheWholeStream) {
  StreamWriter writer(SimpleSchema());
  std::vector<uint8_t> streamed = testing::ToVector(writer.TakeBytes());
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(writer.WriteBatch(SimpleBatch(10, i)).ok());
    const Buffer part = writer.TakeBytes();
    streamed.insert(streamed.end(), part.data(), part.data() + part.size());
  }
  const size_t total = writer.size();
  auto rest = writer.Finish();
  ASSERT_TRUE(rest.ok());
  streamed.insert(streamed.end(), rest->data(), rest->data() + rest->size());
  EXPECT_EQ(streamed.size(), total + 8);

  auto whole =
      WriteStream(SimpleSchema(), {SimpleBatch(10, 0), SimpleBatch(10, 1), SimpleBatch(10, 2)});
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(streamed, testing::ToVector(*whole));
}

TEST(WriterTest, FileWriterTakeBytesKeepsAbsoluteBlockOffsets) {
  FileWriter writer(SimpleSchema());
  std::vector<uint8_t> bytes = testing::ToVector(writer.TakeBytes());
  ASSERT_TRUE(writer.WriteBatch(SimpleBatch(4)).ok());
  const Buffer part = writer.TakeBytes();
  bytes.insert(bytes.end(), part.data(), part.data() + part.size());
  ASSERT_TRUE(writer.WriteBatch(SimpleBatch(7)).ok());
  auto rest = writer.Finish();
  ASSERT_TRUE(rest.ok());
  bytes.insert(bytes.end(), rest->data(), rest->data() + rest->size());
  auto read = ReadFile(testing::ToBuffer(bytes));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ExpectBatchesEqual({SimpleBatch(4), SimpleBatch(7)}, read->batches);
}

TEST(WriterTest, BatchWithAnotherSchemaIsRejected) {
  StreamWriter writer(SimpleSchema());
  const Status st = writer.WriteBatch(AllTypesBatch(2));
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
}

TEST(WriterTest, WritingAfterFinishIsRejected) {
  StreamWriter writer(SimpleSchema());
  ASSERT_TRUE(writer.Finish().ok());
  EXPECT_EQ(writer.WriteBatch(SimpleBatch(1)).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(writer.Finish().status().code(), StatusCode::kInvalidArgument);
  FileWriter file_writer(SimpleSchema());
  ASSERT_TRUE(file_writer.Finish().ok());
  EXPECT_EQ(file_writer.Finish().status().code(), StatusCode::kInvalidArgument);
}

TEST(WriterTest, ArrayWithShortBufferIsRejectedNotRead) {
  auto data = std::make_shared<ArrayData>();
  data->type = DataType::Int64();
  data->length = 10;
  data->buffers = {Buffer(), Buffer::Copy(std::string(16, '\0'))};  // 2 values, not 10
  const SchemaPtr schema = MakeSchema({Field("x", DataType::Int64())});
  auto batch = RecordBatch::Make(schema, 10, {Array(data)});
  ASSERT_TRUE(batch.ok());
  StreamWriter writer(schema);
  const size_t before = writer.size();
  const Status st = writer.WriteBatch(*batch);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.message().find("'x'"), std::string::npos) << st.message();
  EXPECT_EQ(writer.size(), before);
}

void ExpectError(const Status& st, StatusCode code, const std::string& message) {
  EXPECT_EQ(st.code(), code) << st.ToString();
  EXPECT_EQ(st.message(), message);
}

// A writer whose schema a reader would refuse writes nothing and reports why on every call.
void ExpectSchemaRefused(const SchemaPtr& schema, const WriteOptions& options, StatusCode code,
                         const std::string& message) {
  StreamWriter stream(schema, options);
  ExpectError(stream.status(), code, message);
  EXPECT_EQ(stream.size(), 0u);
  ExpectError(stream.Finish().status(), code, message);
  FileWriter file(schema, options);
  EXPECT_EQ(file.size(), 0u) << "not even the magic";
  ExpectError(file.WriteBatch(RecordBatch()), code, message);
  ExpectError(WriteStream(schema, {}, options).status(), code, message);
  ExpectError(WriteFile(schema, {}, options).status(), code, message);
}

TEST(WriterTest, SchemaWithMoreFieldsThanReadersAcceptIsNotWritten) {
  const int limit = IpcLimits{}.max_fields;
  std::vector<Field> fields;
  for (int i = 0; i <= limit; ++i)
    fields.push_back(Field("f" + std::to_string(i), DataType::Int8()));
  ExpectSchemaRefused(MakeSchema(fields), {}, StatusCode::kResourceExhausted,
                      "schema has 10001 fields, more than the limit of 10000");
  fields.pop_back();
  const ReadResult read = RoundTrip(MakeSchema(fields), {}, false);
  ASSERT_NE(read.schema, nullptr);
  EXPECT_EQ(read.schema->num_fields(), static_cast<size_t>(limit));
}

TEST(WriterTest, SchemaMetadataAboveReadersLimitIsNotWritten) {
  const int64_t limit = IpcLimits{}.max_metadata_bytes;
  const SchemaPtr schema = MakeSchema({Field("x", DataType::Int8())},
                                      {{"blob", std::string(static_cast<size_t>(limit), 'x')}});
  StreamWriter writer(schema);
  EXPECT_EQ(writer.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(writer.status().message().find(" bytes exceeds the metadata limit of 16777216"),
            std::string::npos)
      << writer.status().ToString();

  WriteOptions options;
  const std::vector<uint8_t> message = EncodeSchemaMessage(*SimpleSchema());
  const int64_t padded = bit_util::RoundUp(8 + static_cast<int64_t>(message.size()), 8) - 8;
  options.limits.max_metadata_bytes = padded - 1;
  ExpectSchemaRefused(SimpleSchema(), options, StatusCode::kResourceExhausted,
                      "schema message of " + std::to_string(padded) +
                          " bytes exceeds the metadata limit of " + std::to_string(padded - 1));
  options.limits.max_metadata_bytes = padded;
  EXPECT_TRUE(StreamWriter(SimpleSchema(), options).status().ok());
}

TEST(WriterTest, SchemaStringsThatAreNotUtf8AreNotWritten) {
  const std::string bad =
      "a\xFF"
      "b";
  ExpectSchemaRefused(MakeSchema({Field("x", DataType::Int8()), Field(bad, DataType::Int8())}), {},
                      StatusCode::kInvalidArgument, "the name of field 1 is not valid UTF-8");
  ExpectSchemaRefused(MakeSchema({Field("x", DataType::Int8(), true, {{"k", bad}})}), {},
                      StatusCode::kInvalidArgument,
                      "field 'x': custom metadata value of key 'k' is not valid UTF-8");
  ExpectSchemaRefused(MakeSchema({Field("x", DataType::Int8())}, {{bad, "v"}}), {},
                      StatusCode::kInvalidArgument,
                      "schema: custom metadata key 0 is not valid UTF-8");
  ExpectSchemaRefused(MakeSchema({Field("t", DataType::Timestamp(TimeUnit::kSecond, bad))}), {},
                      StatusCode::kInvalidArgument, "field 't': time zone is not valid UTF-8");
}

TEST(WriterTest, BatchWithMoreRowsThanReadersAcceptIsNotWrittenAndTheWriterStaysUsable) {
  // Null columns cost nothing per row: the default limit is reachable in memory.
  const SchemaPtr nulls = MakeSchema({Field("n", DataType::Null())});
  const int64_t limit = IpcLimits{}.max_batch_rows;
  auto huge = RecordBatch::Make(nulls, limit + 1, {MakeNullArray(DataType::Null(), limit + 1)});
  ASSERT_TRUE(huge.ok());
  for (bool file : {false, true}) {
    StreamWriter stream(nulls);
    FileWriter file_writer(nulls);
    const size_t before = file ? file_writer.size() : stream.size();
    const Status st = file ? file_writer.WriteBatch(*huge) : stream.WriteBatch(*huge);
    ExpectError(st, StatusCode::kResourceExhausted,
                "record batch of 2147483648 rows exceeds the limit of 2147483647");
    EXPECT_EQ(file ? file_writer.size() : stream.size(), before);
    EXPECT_TRUE((file ? file_writer.WriteBatch(huge->Slice(0, limit))
                      : stream.WriteBatch(huge->Slice(0, limit)))
                    .ok());
    auto bytes = file ? file_writer.Finish() : stream.Finish();
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    auto read = ReadStreamOrFile(*bytes);
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    EXPECT_EQ(read->batches.at(0).num_rows(), limit);
  }
}

TEST(WriterTest, BatchBodyAboveReadersLimitIsNotWritten) {
  WriteOptions options;
  options.limits.max_body_bytes = 16;
  StreamWriter writer(SimpleSchema(), options);
  const size_t before = writer.size();
  const Status st = writer.WriteBatch(SimpleBatch(5));
  EXPECT_EQ(st.code(), StatusCode::kResourceExhausted) << st.ToString();
  EXPECT_NE(st.message().find("record batch body of "), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find(" bytes exceeds the limit of 16"), std::string::npos);
  EXPECT_EQ(writer.size(), before);
}

TEST(WriterTest, BatchMetadataAboveReadersLimitIsNotWritten) {
  // Many unnamed int64 columns: each costs a node and two buffers (48 bytes) in a batch message,
  // less in the schema message, so a limit between the two sizes refuses only the batch.
  std::vector<Field> fields(100, Field("", DataType::Int64(), false));
  const SchemaPtr schema = MakeSchema(fields);
  std::vector<Array> columns(100, testing::MakePrimitive<int64_t>(DataType::Int64(), {1}));
  auto batch = RecordBatch::Make(schema, 1, columns);
  ASSERT_TRUE(batch.ok());
  auto bytes = WriteStream(schema, {*batch});
  ASSERT_TRUE(bytes.ok());
  const auto messages = WalkStream(*bytes);
  ASSERT_EQ(messages.size(), 2u);
  const auto schema_size = bit_util::LoadLE<int32_t>(bytes->data() + 4);
  const auto batch_size = bit_util::LoadLE<int32_t>(bytes->data() + messages[1].offset + 4);
  ASSERT_LT(schema_size, batch_size);

  WriteOptions options;
  options.limits.max_metadata_bytes = batch_size - 1;
  StreamWriter writer(schema, options);
  ASSERT_TRUE(writer.status().ok()) << writer.status().ToString();
  const size_t before = writer.size();
  ExpectError(writer.WriteBatch(*batch), StatusCode::kResourceExhausted,
              "record batch metadata of " + std::to_string(batch_size) +
                  " bytes exceeds the metadata limit of " + std::to_string(batch_size - 1));
  EXPECT_EQ(writer.size(), before);
}

TEST(WriterTest, FileFooterAboveReadersLimitFailsFinish) {
  WriteOptions options;
  options.limits.max_metadata_bytes = 1024;
  FileWriter writer(SimpleSchema(), options);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(writer.WriteBatch(SimpleBatch(1)).ok());
  const size_t before = writer.size();
  auto finished = writer.Finish();
  EXPECT_EQ(finished.status().code(), StatusCode::kResourceExhausted)
      << finished.status().ToString();
  EXPECT_NE(finished.status().message().find("file footer of "), std::string::npos);
  EXPECT_NE(finished.status().message().find(" bytes exceeds the metadata limit of 1024"),
            std::string::npos);
  EXPECT_EQ(writer.size(), before);
}

// Not a benchmark (the machine is shared), but a guard against per-element work creeping into
// the uncompressed path: writing must stay within a small factor of copying the same bytes.
TEST(WriterTest, UncompressedWriteOfAMillionRowsIsCloseToMemcpy) {
  constexpr int64_t kRows = 1'000'000;
  std::vector<std::optional<int64_t>> ids(kRows);
  std::vector<std::optional<std::string>> names(kRows);
  for (int64_t i = 0; i < kRows; ++i) {
    ids[i] = i;
    names[i] = "name-" + std::to_string(i);
  }
  const SchemaPtr schema =
      MakeSchema({Field("id", DataType::Int64()), Field("name", DataType::Utf8())});
  auto batch = RecordBatch::Make(schema, kRows,
                                 {testing::MakePrimitive<int64_t>(DataType::Int64(), ids),
                                  testing::MakeBinary(DataType::Utf8(), names)});
  ASSERT_TRUE(batch.ok());

  using Clock = std::chrono::steady_clock;
  double best_write = 1e9;
  double best_copy = 1e9;
  size_t size = 0;
  for (int round = 0; round < 3; ++round) {
    auto start = Clock::now();
    auto bytes = WriteStream(schema, {*batch});
    best_write = std::min(best_write, std::chrono::duration<double>(Clock::now() - start).count());
    ASSERT_TRUE(bytes.ok());
    size = bytes->size();
    start = Clock::now();
    const Buffer copy = Buffer::Copy(bytes->span());
    best_copy = std::min(best_copy, std::chrono::duration<double>(Clock::now() - start).count());
    ASSERT_EQ(copy.size(), size);
  }
  std::printf("write %.2f ms, copy %.2f ms for %zu bytes\n", best_write * 1e3, best_copy * 1e3,
              size);
  EXPECT_LT(best_write, 10 * best_copy + 0.02);
}

}  // namespace
}  // namespace higgins::arrow::ipc
