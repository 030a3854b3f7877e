#include "udf/abi.h"

#include <gtest/gtest.h>

#include "higgins/arrow/ipc/reader.h"
#include "higgins/arrow/ipc/writer.h"
#include "udf/test_modules.h"

namespace higgins::udf {
namespace {

using testing::Encode;
using testing::SampleBatch;

constexpr std::string_view kEndOfStream("\xFF\xFF\xFF\xFF\0\0\0\0", 8);

std::string WriteBatches(const arrow::SchemaPtr& schema,
                         const std::vector<arrow::RecordBatch>& batches) {
  auto bytes = arrow::ipc::WriteStream(schema, batches);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  return bytes.ok() ? std::string(bytes->view()) : std::string();
}

arrow::SchemaPtr WithFields(std::vector<arrow::Field> fields) {
  return arrow::MakeSchema(std::move(fields));
}

void ExpectInvalid(const Result<arrow::RecordBatch>& result, std::string_view fragment) {
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument) << result.status().ToString();
  EXPECT_NE(result.status().message().find(fragment), std::string::npos)
      << "'" << fragment << "' not in: " << result.status().message();
}

TEST(AbiTest, EncodedBatchIsSchemaOneBatchAndEndOfStream) {
  const arrow::RecordBatch batch = SampleBatch(3);
  const std::string bytes = Encode(batch);
  ASSERT_GE(bytes.size(), kEndOfStream.size());
  EXPECT_EQ(bytes.substr(bytes.size() - kEndOfStream.size()), kEndOfStream);
  auto read = arrow::ipc::ReadStream(Buffer::Copy(bytes));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->batches.size(), 1u);
  EXPECT_TRUE(read->batches[0].Equals(batch));
}

TEST(AbiTest, DecodeResultRoundTripsEncodeBatch) {
  const arrow::RecordBatch batch = SampleBatch(5);
  auto decoded = DecodeResult(Encode(batch), batch.schema());
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_TRUE(decoded->Equals(batch));
  EXPECT_EQ(decoded->schema(), batch.schema());  // the very SchemaPtr given
}

TEST(AbiTest, EncodeBatchRefusesWhatNoReaderWouldRead) {
  // A zero-column batch can claim any row count without bytes behind it.
  auto batch = arrow::RecordBatch::Make(WithFields({}), int64_t{1} << 32, {});
  ASSERT_TRUE(batch.ok());
  auto bytes = EncodeBatch(*batch);
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.status().code(), StatusCode::kResourceExhausted) << bytes.status().ToString();
}

TEST(AbiTest, MissingEndOfStreamIsAccepted) {
  const arrow::RecordBatch batch = SampleBatch(3);
  std::string bytes = Encode(batch);
  bytes.resize(bytes.size() - kEndOfStream.size());
  auto decoded = DecodeResult(bytes, batch.schema());
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_TRUE(decoded->Equals(batch));
}

TEST(AbiTest, TwoBatchesAreRefused) {
  const arrow::RecordBatch batch = SampleBatch(3);
  ExpectInvalid(DecodeResult(WriteBatches(batch.schema(), {batch, batch}), batch.schema()),
                "the module's result has 2 record batches; exactly one is expected");
}

TEST(AbiTest, SchemaWithoutBatchIsRefused) {
  const arrow::RecordBatch batch = SampleBatch(3);
  ExpectInvalid(DecodeResult(WriteBatches(batch.schema(), {}), batch.schema()),
                "the module's result has 0 record batches");
}

TEST(AbiTest, WrongTypeIsRefusedNamingTheField) {
  const arrow::RecordBatch batch = SampleBatch(3);
  const auto expected = WithFields({arrow::Field("id", arrow::DataType::Utf8(), false),
                                    arrow::Field("data", arrow::DataType::Int64())});
  ExpectInvalid(DecodeResult(Encode(batch), expected),
                "the module's result schema differs from the stream's: field 1 is 'data: int32' "
                "where 'data: int64' is expected");
}

TEST(AbiTest, WrongNamesAndOrderAreRefused) {
  const arrow::RecordBatch batch = SampleBatch(3);
  const auto swapped = WithFields({arrow::Field("data", arrow::DataType::Int32()),
                                   arrow::Field("id", arrow::DataType::Utf8(), false)});
  ExpectInvalid(DecodeResult(Encode(batch), swapped),
                "field 0 is 'id: utf8' where 'data: int32' is expected; field 1 is 'data: int32' "
                "where 'id: utf8' is expected");
}

TEST(AbiTest, WrongFieldCountIsRefused) {
  const arrow::RecordBatch batch = SampleBatch(3);
  const auto expected = WithFields({arrow::Field("id", arrow::DataType::Utf8(), false)});
  ExpectInvalid(DecodeResult(Encode(batch), expected),
                "it has 2 fields (id, data) where 1 are expected (id)");
}

TEST(AbiTest, ResultNullabilityIsIgnored) {
  // The module declares every field nullable, the stream says 'data' is not null: fine as long
  // as there are no nulls, and the batch then carries the stream's schema.
  const arrow::RecordBatch batch = SampleBatch(3);
  const auto expected = WithFields({arrow::Field("id", arrow::DataType::Utf8(), false),
                                    arrow::Field("data", arrow::DataType::Int32(), false)});
  auto decoded = DecodeResult(Encode(batch), expected);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->schema(), expected);
  EXPECT_EQ(decoded->column(1).Value<int32_t>(2), 3);
}

TEST(AbiTest, NullInNonNullableFieldIsRefused) {
  arrow::ArrayBuilder ids(arrow::DataType::Utf8());
  arrow::ArrayBuilder data(arrow::DataType::Int32());
  ASSERT_TRUE(ids.AppendBinary("a").ok());
  ASSERT_TRUE(ids.AppendBinary("b").ok());
  data.AppendPrimitive<int32_t>(1);
  data.AppendNull();
  const auto schema = WithFields({arrow::Field("id", arrow::DataType::Utf8()),
                                  arrow::Field("data", arrow::DataType::Int32())});
  auto batch = arrow::RecordBatch::Make(schema, 2, {ids.Finish(), data.Finish()});
  ASSERT_TRUE(batch.ok());
  const auto expected = WithFields({arrow::Field("id", arrow::DataType::Utf8()),
                                    arrow::Field("data", arrow::DataType::Int32(), false)});
  ExpectInvalid(DecodeResult(Encode(*batch), expected),
                "the module's result has 1 null(s) in field 'data', which the stream's schema "
                "declares not null");
}

TEST(AbiTest, InvalidUtf8IsRefused) {
  arrow::ArrayBuilder ids(arrow::DataType::Utf8());
  ASSERT_TRUE(ids.AppendBinary("\xC3\x28").ok());
  const auto schema = WithFields({arrow::Field("id", arrow::DataType::Utf8())});
  auto batch = arrow::RecordBatch::Make(schema, 1, {ids.Finish()});
  ASSERT_TRUE(batch.ok());
  ExpectInvalid(DecodeResult(Encode(*batch), schema),
                "the module's result is not a valid Arrow IPC stream: ");
}

TEST(AbiTest, GarbageIsRefused) {
  const arrow::SchemaPtr schema = SampleBatch(1).schema();
  ExpectInvalid(DecodeResult("", schema), "the module's result is not a valid Arrow IPC stream: ");
  ExpectInvalid(DecodeResult("not arrow at all", schema),
                "the module's result is not a valid Arrow IPC stream: ");
  const std::string bytes = Encode(SampleBatch(3));
  for (size_t cut : {size_t{4}, size_t{8}, bytes.size() / 2, bytes.size() - 9}) {
    SCOPED_TRACE(cut);
    ExpectInvalid(DecodeResult(std::string_view(bytes).substr(0, cut), schema),
                  "the module's result is not a valid Arrow IPC stream: ");
  }
  std::string flipped = bytes;
  for (size_t i = 0; i < flipped.size(); i += 7) flipped[i] = static_cast<char>(flipped[i] ^ 0x5A);
  EXPECT_FALSE(DecodeResult(flipped, schema).ok());
}

}  // namespace
}  // namespace higgins::udf
