#include "arrow/ipc/stream_decoder.h"

#include <gtest/gtest.h>

#include "arrow/ipc/framing.h"
#include "higgins/arrow/ipc/reader.h"
#include "arrow/ipc/test_util.h"
#include "higgins/arrow/ipc/writer.h"
#include "higgins/bit_util.h"

namespace higgins::arrow::ipc {
namespace {

using testing::AllTypesBatch;
using testing::AllTypesSchema;
using testing::SimpleBatch;
using testing::SimpleSchema;
using testing::ToBuffer;
using testing::ToVector;

std::vector<uint8_t> WriteSimpleStream(int batches) {
  std::vector<RecordBatch> list;
  for (int i = 0; i < batches; ++i) list.push_back(SimpleBatch(5 + i, i));
  auto bytes = WriteStream(SimpleSchema(), list);
  EXPECT_TRUE(bytes.ok());
  return ToVector(*bytes);
}

struct Decoded {
  Status status;
  int schemas = 0;
  int ends = 0;
  std::vector<RecordBatch> batches;
};

// Feeds `bytes` in chunks of `chunk` bytes, then closes the decoder.
Decoded Decode(const std::vector<uint8_t>& bytes, size_t chunk, ReadOptions options = {}) {
  StreamDecoder decoder(options);
  Decoded out;
  for (size_t pos = 0; pos < bytes.size() && out.status.ok(); pos += chunk) {
    const size_t n = std::min(chunk, bytes.size() - pos);
    out.status = decoder.Consume(std::span<const uint8_t>(bytes.data() + pos, n));
  }
  if (out.status.ok()) out.status = decoder.Close();
  while (auto event = decoder.Poll()) {
    switch (event->kind) {
      case StreamDecoder::EventKind::kSchema: ++out.schemas; break;
      case StreamDecoder::EventKind::kRecordBatch: out.batches.push_back(event->batch); break;
      case StreamDecoder::EventKind::kEndOfStream: ++out.ends; break;
    }
  }
  return out;
}

TEST(StreamDecoderTest, OneByteAtATimeEqualsWholeBufferDecode) {
  auto bytes =
      WriteStream(AllTypesSchema(), {AllTypesBatch(20), AllTypesBatch(0), AllTypesBatch(9, 3)});
  ASSERT_TRUE(bytes.ok());
  const std::vector<uint8_t> stream = ToVector(*bytes);
  const Decoded whole = Decode(stream, stream.size());
  const Decoded bytewise = Decode(stream, 1);
  const Decoded odd = Decode(stream, 7);
  for (const Decoded* d : {&whole, &bytewise, &odd}) {
    ASSERT_TRUE(d->status.ok()) << d->status.ToString();
    EXPECT_EQ(d->schemas, 1);
    EXPECT_EQ(d->ends, 1);
    ASSERT_EQ(d->batches.size(), 3u);
    for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(d->batches[i].Equals(whole.batches[i]));
  }
  EXPECT_TRUE(whole.batches[0].Equals(AllTypesBatch(20)));
}

TEST(StreamDecoderTest, OwnedBufferIsReferencedNotCopied) {
  const Buffer stream = ToBuffer(WriteSimpleStream(2));
  StreamDecoder decoder;
  ASSERT_TRUE(decoder.Consume(stream).ok());
  EXPECT_TRUE(decoder.finished());
  EXPECT_EQ(decoder.buffered_bytes(), 0u);
  ASSERT_EQ(decoder.Poll()->kind, StreamDecoder::EventKind::kSchema);
  auto event = decoder.Poll();
  ASSERT_EQ(event->kind, StreamDecoder::EventKind::kRecordBatch);
  const Buffer& values = event->batch.column(0).data().buffers[1];
  EXPECT_GE(values.data(), stream.data());
  EXPECT_LE(values.data() + values.size(), stream.data() + stream.size());
  EXPECT_EQ(values.owner(), stream.owner()) << "slices share the input's owner";
}

TEST(StreamDecoderTest, EventsArriveAsSoonAsTheirMessageCompletes) {
  const std::vector<uint8_t> stream = WriteSimpleStream(1);
  StreamDecoder decoder;
  ASSERT_TRUE(decoder.Consume(std::span<const uint8_t>(stream.data(), 4)).ok());
  EXPECT_FALSE(decoder.Poll().has_value());
  EXPECT_EQ(decoder.schema(), nullptr);
  ASSERT_TRUE(
      decoder.Consume(std::span<const uint8_t>(stream).subspan(4, stream.size() - 12)).ok());
  ASSERT_NE(decoder.schema(), nullptr);
  EXPECT_EQ(decoder.Poll()->kind, StreamDecoder::EventKind::kSchema);
  EXPECT_EQ(decoder.Poll()->kind, StreamDecoder::EventKind::kRecordBatch);
  EXPECT_FALSE(decoder.finished());
  ASSERT_TRUE(decoder.Consume(std::span<const uint8_t>(stream).subspan(stream.size() - 8)).ok());
  EXPECT_EQ(decoder.Poll()->kind, StreamDecoder::EventKind::kEndOfStream);
  EXPECT_TRUE(decoder.finished());
}

// Rewrites a modern stream in the pre-0.15 framing: no continuation marker, the int32 metadata
// size first (padded so the body stays 8-aligned), and a 4-byte zero end-of-stream.
std::vector<uint8_t> ToLegacyFraming(const std::vector<uint8_t>& stream) {
  std::vector<uint8_t> out;
  size_t pos = 0;
  for (;;) {
    const auto size = bit_util::LoadLE<int32_t>(stream.data() + pos + 4);
    if (size == 0) break;
    const Buffer meta = Buffer::Copy(std::span(stream).subspan(pos + 8, size_t(size)));
    auto decoded = DecodeMessage(meta.span(), IpcLimits{});
    EXPECT_TRUE(decoded.ok());
    uint8_t prefix[4];
    bit_util::StoreLE<int32_t>(prefix, size + 4);
    out.insert(out.end(), prefix, prefix + 4);
    out.insert(out.end(), meta.data(), meta.data() + meta.size());
    out.insert(out.end(), 4, 0);
    const size_t body = pos + 8 + size_t(size);
    out.insert(out.end(), stream.begin() + long(body),
               stream.begin() + long(body + size_t(decoded->body_length)));
    pos = body + size_t(decoded->body_length);
  }
  out.insert(out.end(), 4, 0);
  return out;
}

TEST(StreamDecoderTest, LegacyFramingWithoutContinuationMarkers) {
  const std::vector<uint8_t> modern = WriteSimpleStream(3);
  const std::vector<uint8_t> legacy = ToLegacyFraming(modern);
  const Decoded a = Decode(modern, modern.size());
  for (size_t chunk : {legacy.size(), size_t{1}}) {
    const Decoded b = Decode(legacy, chunk);
    ASSERT_TRUE(b.status.ok()) << b.status.ToString();
    EXPECT_EQ(b.ends, 1);
    ASSERT_EQ(b.batches.size(), 3u);
    for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(a.batches[i].Equals(b.batches[i]));
  }
}

TEST(StreamDecoderTest, ZeroWordIsAnOldStyleEndOfStream) {
  std::vector<uint8_t> stream = WriteSimpleStream(1);
  stream.resize(stream.size() - 8);
  stream.insert(stream.end(), 4, 0);
  const Decoded d = Decode(stream, stream.size());
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  EXPECT_EQ(d.batches.size(), 1u);
  EXPECT_EQ(d.ends, 1);
}

TEST(StreamDecoderTest, MissingEndOfStreamIsAcceptedAtAMessageBoundary) {
  std::vector<uint8_t> stream = WriteSimpleStream(2);
  stream.resize(stream.size() - 8);
  const Decoded d = Decode(stream, 3);
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  EXPECT_EQ(d.batches.size(), 2u);
  EXPECT_EQ(d.ends, 1) << "Close() reports the end";
  auto read = ReadStream(ToBuffer(stream));
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->batches.size(), 2u);
}

TEST(StreamDecoderTest, TruncatedStreamIsCorruptionWhereverItIsCut) {
  std::vector<uint8_t> stream = WriteSimpleStream(1);
  stream.resize(stream.size() - 8);  // no EOS: every proper prefix that is not a boundary fails
  const size_t schema_end = 8 + bit_util::LoadLE<int32_t>(stream.data() + 4);
  for (size_t cut = 1; cut < stream.size(); ++cut) {
    if (cut == schema_end) continue;  // schema-only stream: valid
    std::vector<uint8_t> truncated(stream.begin(), stream.begin() + long(cut));
    const Decoded d = Decode(truncated, truncated.size());
    EXPECT_EQ(d.status.code(), StatusCode::kCorruption) << "cut at " << cut;
  }
}

void ExpectError(const Status& st, StatusCode code, const std::string& message) {
  EXPECT_EQ(st.code(), code) << st.ToString();
  EXPECT_EQ(st.message(), message);
}

TEST(StreamDecoderTest, InputEndingInsideAMessagePrefixSaysSoWithTheBytesThatArrived) {
  const std::vector<std::pair<std::vector<uint8_t>, std::string>> cases = {
      {{0xFF, 0xFF, 0xFF, 0xFF}, "a message prefix (4 of 8 bytes)"},  // marker only
      {{0xFF, 0xFF, 0xFF, 0xFF, 0x10, 0x00}, "a message prefix (6 of 8 bytes)"},
      {{0xFF, 0xFF}, "a message prefix (2 of at least 4 bytes)"},
  };
  for (const auto& [bytes, part] : cases) {
    for (size_t chunk : {bytes.size(), size_t{1}}) {
      ExpectError(Decode(bytes, chunk).status, StatusCode::kCorruption,
                  "truncated stream: the input ends inside " + part);
    }
  }
}

TEST(StreamDecoderTest, InputEndingInsideMetadataOrBodySaysHowMuchArrived) {
  std::vector<uint8_t> stream = WriteSimpleStream(1);
  stream.resize(stream.size() - 8);
  const size_t schema_end = 8 + bit_util::LoadLE<int32_t>(stream.data() + 4);
  const auto metadata =
      static_cast<size_t>(bit_util::LoadLE<int32_t>(stream.data() + schema_end + 4));
  const size_t body = stream.size() - schema_end - 8 - metadata;

  std::vector<uint8_t> cut(stream.begin(), stream.begin() + long(schema_end + 8 + 10));
  ExpectError(Decode(cut, cut.size()).status, StatusCode::kCorruption,
              "truncated stream: the input ends inside a message's metadata (10 of " +
                  std::to_string(metadata) + " bytes)");
  cut.assign(stream.begin(), stream.end() - 3);
  ExpectError(Decode(cut, 5).status, StatusCode::kCorruption,
              "truncated stream: the input ends inside a message body (" +
                  std::to_string(body - 3) + " of " + std::to_string(body) + " bytes)");
}

TEST(StreamDecoderTest, BatchWithMoreRowsThanTheLimitIsResourceExhausted) {
  // A few hundred bytes can declare a zero-column batch of 2^40 rows or a null column of 10^12
  // slots: nothing to load, but consumers would iterate over the rows forever.
  RecordBatchHeader no_fields;
  no_fields.length = int64_t{1} << 40;
  RecordBatchHeader null_column;
  null_column.length = 1'000'000'000'000;
  null_column.nodes = {{null_column.length, 0}};
  const Schema nulls({Field("n", DataType::Null())});
  for (const auto& [schema, header] : std::vector<std::pair<Schema, RecordBatchHeader>>{
           {Schema(), no_fields}, {nulls, null_column}}) {
    const std::vector<uint8_t> stream = testing::MakeRawStream(schema, {{header, {}}});
    ExpectError(Decode(stream, stream.size()).status, StatusCode::kResourceExhausted,
                "record batch of " + std::to_string(header.length) +
                    " rows exceeds the limit of 2147483647");
  }

  RecordBatchHeader at_limit;
  at_limit.length = IpcLimits{}.max_batch_rows;
  const Decoded d = Decode(testing::MakeRawStream(Schema(), {{at_limit, {}}}), 1000);
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  EXPECT_EQ(d.batches.at(0).num_rows(), at_limit.length);

  ReadOptions options;
  options.limits.max_batch_rows = 5;  // WriteSimpleStream(1) holds one batch of 5 rows
  EXPECT_TRUE(Decode(WriteSimpleStream(1), 1000, options).status.ok());
  options.limits.max_batch_rows = 4;
  ExpectError(Decode(WriteSimpleStream(1), 1000, options).status, StatusCode::kResourceExhausted,
              "record batch of 5 rows exceeds the limit of 4");
}

TEST(StreamDecoderTest, EmptyInputHasNoSchema) {
  const Decoded d = Decode({}, 1);
  EXPECT_EQ(d.status.code(), StatusCode::kCorruption);
  EXPECT_EQ(ReadStream(Buffer()).status().code(), StatusCode::kCorruption);
}

TEST(StreamDecoderTest, EndOfStreamBeforeSchemaIsCorruption) {
  const std::vector<uint8_t> eos(kEndOfStream, kEndOfStream + 8);
  EXPECT_EQ(Decode(eos, 8).status.code(), StatusCode::kCorruption);
}

TEST(StreamDecoderTest, InvalidPrefixWordIsCorruption) {
  std::vector<uint8_t> stream = WriteSimpleStream(1);
  bit_util::StoreLE<int32_t>(stream.data(), -2);
  EXPECT_EQ(Decode(stream, stream.size()).status.code(), StatusCode::kCorruption);
}

TEST(StreamDecoderTest, NegativeMetadataLengthIsCorruption) {
  std::vector<uint8_t> stream = WriteSimpleStream(1);
  bit_util::StoreLE<int32_t>(stream.data() + 4, -16);
  const Decoded d = Decode(stream, stream.size());
  EXPECT_EQ(d.status.code(), StatusCode::kCorruption);
  EXPECT_NE(d.status.message().find("negative"), std::string::npos) << d.status.ToString();
}

TEST(StreamDecoderTest, OversizedMetadataIsResourceExhaustedBeforeBuffering) {
  std::vector<uint8_t> stream = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0x7F};  // ~2 GiB of metadata
  const Decoded d = Decode(stream, stream.size());
  EXPECT_EQ(d.status.code(), StatusCode::kResourceExhausted) << d.status.ToString();

  ReadOptions options;
  options.limits.max_metadata_bytes = 64;
  EXPECT_EQ(Decode(WriteSimpleStream(1), 1, options).status.code(), StatusCode::kResourceExhausted);
}

TEST(StreamDecoderTest, TextInputIsNotAnArrowStream) {
  const std::string text = "not arrow at all\n";
  const Decoded d = Decode(std::vector<uint8_t>(text.begin(), text.end()), text.size());
  EXPECT_EQ(d.status.code(), StatusCode::kCorruption) << d.status.ToString();
  EXPECT_NE(d.status.message().find("not an Arrow IPC stream: expected the continuation marker"),
            std::string::npos)
      << d.status.ToString();
}

TEST(StreamDecoderTest, OversizedBodyIsResourceExhausted) {
  ReadOptions options;
  options.limits.max_body_bytes = 16;
  const Decoded d = Decode(WriteSimpleStream(1), 1000, options);
  EXPECT_EQ(d.status.code(), StatusCode::kResourceExhausted) << d.status.ToString();
}

TEST(StreamDecoderTest, NegativeBodyLengthIsCorruption) {
  RecordBatchHeader header;
  std::vector<uint8_t> stream;
  testing::AppendFramed(EncodeSchemaMessage(*SimpleSchema()), {}, stream);
  testing::AppendFramed(EncodeRecordBatchMessage(header, -8), {}, stream);
  EXPECT_EQ(Decode(stream, stream.size()).status.code(), StatusCode::kCorruption);
}

TEST(StreamDecoderTest, BytesAfterEndOfStreamAreCorruption) {
  std::vector<uint8_t> stream = WriteSimpleStream(1);
  stream.push_back(0);
  EXPECT_EQ(Decode(stream, stream.size()).status.code(), StatusCode::kCorruption);
  EXPECT_EQ(Decode(stream, 1).status.code(), StatusCode::kCorruption);
  const std::vector<uint8_t> twice = [&] {
    std::vector<uint8_t> s = WriteSimpleStream(1);
    s.insert(s.end(), kEndOfStream, kEndOfStream + 8);
    return s;
  }();
  EXPECT_EQ(Decode(twice, twice.size()).status.code(), StatusCode::kCorruption);
}

TEST(StreamDecoderTest, RecordBatchBeforeSchemaIsCorruption) {
  const std::vector<uint8_t> stream = WriteSimpleStream(1);
  const size_t schema_end = 8 + bit_util::LoadLE<int32_t>(stream.data() + 4);
  std::vector<uint8_t> headless(stream.begin() + long(schema_end), stream.end());
  EXPECT_EQ(Decode(headless, headless.size()).status.code(), StatusCode::kCorruption);
}

TEST(StreamDecoderTest, SecondSchemaMessageIsCorruption) {
  std::vector<uint8_t> stream;
  testing::AppendFramed(EncodeSchemaMessage(*SimpleSchema()), {}, stream);
  testing::AppendFramed(EncodeSchemaMessage(*SimpleSchema()), {}, stream);
  EXPECT_EQ(Decode(stream, stream.size()).status.code(), StatusCode::kCorruption);
}

TEST(StreamDecoderTest, GarbageMetadataFailsVerification) {
  std::vector<uint8_t> stream = {0xFF, 0xFF, 0xFF, 0xFF, 16, 0, 0, 0};
  for (int i = 0; i < 16; ++i) stream.push_back(static_cast<uint8_t>(0xA5 ^ i));
  const Decoded d = Decode(stream, stream.size());
  EXPECT_EQ(d.status.code(), StatusCode::kCorruption) << d.status.ToString();
}

TEST(StreamDecoderTest, DecoderStaysFailedAfterAnError) {
  std::vector<uint8_t> stream = WriteSimpleStream(1);
  bit_util::StoreLE<int32_t>(stream.data(), -5);
  StreamDecoder decoder;
  const Status first = decoder.Consume(stream);
  ASSERT_EQ(first.code(), StatusCode::kCorruption);
  EXPECT_EQ(decoder.Consume(WriteSimpleStream(1)), first);
  EXPECT_EQ(decoder.Close(), first);
}

}  // namespace
}  // namespace higgins::arrow::ipc
