// Dictionary-encoded fields: DictionaryBatch messages define, replace and extend dictionaries
// per id; record batches are decoded to the fields' plain value types.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "arrow/ipc/dictionary_column.h"
#include "arrow/ipc/dictionary_test_writer.h"
#include "arrow/ipc/stream_decoder.h"
#include "arrow/ipc/test_util.h"
#include "higgins/arrow/ipc/reader.h"

namespace higgins::arrow::ipc {
namespace {

using testing::DictionaryIpcWriter;
using testing::MakeBinary;
using testing::MakePrimitive;
using Format = DictionaryIpcWriter::Format;
using Strings = std::vector<std::optional<std::string>>;

constexpr int64_t kCityId = 0;

// {id: int32 not null, city: utf8} with city dictionary-encoded (id 0) by `index_type`.
SchemaPtr CitySchema(const DataType& value_type = DataType::Utf8()) {
  return MakeSchema({Field("id", DataType::Int32(), false), Field("city", value_type)});
}
std::vector<DictionaryField> CityField(const DataType& index_type = DataType::Int8()) {
  return {DictionaryField{1, kCityId, index_type}};
}

Array Ids(std::vector<std::optional<int32_t>> ids) {
  return MakePrimitive<int32_t>(DataType::Int32(), ids);
}
Array Int8Indices(std::vector<std::optional<int8_t>> indices) {
  return MakePrimitive<int8_t>(DataType::Int8(), indices);
}
Array Utf8(const Strings& values) {
  return MakeBinary(DataType::Utf8(), values);
}

// The strings of column `column` of `batch` (nullopt for nulls).
Strings StringsOf(const RecordBatch& batch, int column) {
  Strings out;
  const Array& array = batch.column(column);
  for (int64_t i = 0; i < array.length(); ++i) {
    if (array.IsNull(i)) {
      out.push_back(std::nullopt);
    } else {
      out.emplace_back(array.BinaryValue(i));
    }
  }
  return out;
}

Result<ReadResult> Read(const Buffer& bytes, Format format, const ReadOptions& options = {}) {
  return format == Format::kStream ? ReadStream(bytes, options) : ReadFile(bytes, options);
}

void ExpectError(const Result<ReadResult>& read, StatusCode code, const std::string& message) {
  ASSERT_FALSE(read.ok()) << "decoded, expected: " << message;
  EXPECT_EQ(read.status().code(), code) << read.status().ToString();
  EXPECT_EQ(read.status().message(), message);
}

// Two batches whose city column uses different dictionaries (the second replaces the first).
Buffer ReplacementStream() {
  DictionaryIpcWriter writer(CitySchema(), CityField());
  writer.WriteDictionary(kCityId, Utf8({"Paris", "Lyon", "Nice"}));
  writer.WriteBatch({Ids({1, 2, 3, 4}), Int8Indices({0, 2, std::nullopt, 1})});
  writer.WriteDictionary(kCityId, Utf8({"Oslo", "Bergen"}));
  writer.WriteBatch({Ids({5, 6, 7}), Int8Indices({1, 1, 0})});
  return writer.Finish();
}

TEST(DictionaryTest, ReplacementDictionaryAppliesToTheBatchesAfterIt) {
  auto read = ReadStream(ReplacementStream());
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(*read->schema, *CitySchema());
  ASSERT_EQ(read->batches.size(), 2u);
  EXPECT_EQ(read->batches[0].column(1).type(), DataType::Utf8());
  EXPECT_EQ(StringsOf(read->batches[0], 1), (Strings{"Paris", "Nice", std::nullopt, "Lyon"}));
  EXPECT_EQ(read->batches[0].column(1).null_count(), 1);
  EXPECT_EQ(StringsOf(read->batches[1], 1), (Strings{"Bergen", "Bergen", "Oslo"}));
  EXPECT_EQ(read->batches[1].column(0).Value<int32_t>(2), 7);
}

TEST(DictionaryTest, ByteAtATimeDecodingGivesTheSameBatches) {
  const Buffer bytes = ReplacementStream();
  auto whole = ReadStream(bytes);
  ASSERT_TRUE(whole.ok());
  StreamDecoder decoder;
  for (size_t i = 0; i < bytes.size(); ++i) {
    ASSERT_TRUE(decoder.Consume(bytes.span().subspan(i, 1)).ok()) << "byte " << i;
  }
  ASSERT_TRUE(decoder.Close().ok());
  EXPECT_EQ(*decoder.schema(), *CitySchema());
  std::vector<RecordBatch> batches;
  while (auto event = decoder.Poll()) {
    if (event->kind == StreamDecoder::EventKind::kRecordBatch) batches.push_back(event->batch);
  }
  ASSERT_EQ(batches.size(), 2u);
  for (size_t i = 0; i < 2; ++i) EXPECT_TRUE(batches[i].Equals(whole->batches[i])) << i;
}

TEST(DictionaryTest, DeltaDictionaryExtendsTheCurrentOneInStreamsAndFiles) {
  for (Format format : {Format::kStream, Format::kFile}) {
    DictionaryIpcWriter writer(CitySchema(), CityField(), format);
    writer.WriteDictionary(kCityId, Utf8({"Paris", "Lyon"}));
    writer.WriteBatch({Ids({1, 2}), Int8Indices({1, 0})});
    writer.WriteDictionary(kCityId, Utf8({"Nice", std::nullopt}), /*is_delta=*/true);
    writer.WriteBatch({Ids({3, 4, 5}), Int8Indices({2, 0, 3})});
    auto read = Read(writer.Finish(), format);
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    ASSERT_EQ(read->batches.size(), 2u);
    EXPECT_EQ(StringsOf(read->batches[0], 1), (Strings{"Lyon", "Paris"}));
    EXPECT_EQ(StringsOf(read->batches[1], 1), (Strings{"Nice", "Paris", std::nullopt}));
    EXPECT_EQ(read->batches[1].column(1).null_count(), 1);
  }
}

TEST(DictionaryTest, FileMayDefineItsDictionaryAfterTheBatchesUsingIt) {
  DictionaryIpcWriter writer(CitySchema(), CityField(), Format::kFile);
  writer.WriteBatch({Ids({1}), Int8Indices({1})});
  writer.WriteDictionary(kCityId, Utf8({"Paris", "Lyon"}));
  auto read = ReadFile(writer.Finish());
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(StringsOf(read->batches[0], 1), (Strings{"Lyon"}));
}

TEST(DictionaryTest, ReplacementInAFileIsCorruption) {
  DictionaryIpcWriter writer(CitySchema(), CityField(), Format::kFile);
  writer.WriteDictionary(kCityId, Utf8({"Paris"}));
  writer.WriteBatch({Ids({1}), Int8Indices({0})});
  writer.WriteDictionary(kCityId, Utf8({"Oslo"}));
  ExpectError(ReadFile(writer.Finish()), StatusCode::kCorruption,
              "footer dictionary block 1: dictionary 0 (field 'city') replaces an earlier one: "
              "the file format allows only one non-delta dictionary per id (the stream format "
              "allows more)");
}

TEST(DictionaryTest, IndexOutOfRangeIsCorruptionNamingBatchFieldAndRow) {
  for (Format format : {Format::kStream, Format::kFile}) {
    DictionaryIpcWriter writer(CitySchema(), CityField(), format);
    writer.WriteDictionary(kCityId, Utf8({"Paris", "Lyon", "Nice"}));
    writer.WriteBatch({Ids({1, 2}), Int8Indices({0, 1})});
    writer.WriteBatch({Ids({1, 2}), Int8Indices({2, 3})});
    ExpectError(Read(writer.Finish(), format), StatusCode::kCorruption,
                "record batch 1: field 'city': index 3 at row 1 is out of range of dictionary 0 "
                "(3 values)");
  }
}

TEST(DictionaryTest, NegativeIndexIsOutOfRange) {
  DictionaryIpcWriter writer(CitySchema(), CityField());
  writer.WriteDictionary(kCityId, Utf8({"Paris"}));
  writer.WriteBatch({Ids({1}), Int8Indices({-1})});
  ExpectError(ReadStream(writer.Finish()), StatusCode::kCorruption,
              "record batch 0: field 'city': index -1 at row 0 is out of range of dictionary 0 "
              "(1 values)");
}

TEST(DictionaryTest, IndexBehindANullSlotIsIgnored) {
  DictionaryIpcWriter writer(CitySchema(), CityField());
  writer.WriteDictionary(kCityId, Utf8({"Paris"}));
  // The serializer zeroes null slots; build indices whose null slot holds 99.
  Array indices = Int8Indices({0, 99});
  auto data = std::make_shared<ArrayData>(indices.data());
  data->null_count = 1;
  const uint8_t validity = 0b01;
  data->buffers[0] = Buffer::Copy(std::span<const uint8_t>(&validity, 1));
  writer.WriteBatch({Ids({1, 2}), Array(std::move(data))});
  auto read = ReadStream(writer.Finish());
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(StringsOf(read->batches[0], 1), (Strings{"Paris", std::nullopt}));
}

TEST(DictionaryTest, DeltaBeforeItsBaseIsCorruption) {
  for (Format format : {Format::kStream, Format::kFile}) {
    DictionaryIpcWriter writer(CitySchema(), CityField(), format);
    writer.WriteDictionary(kCityId, Utf8({"Paris"}), /*is_delta=*/true);
    writer.WriteBatch({Ids({1}), Int8Indices({0})});
    const std::string where =
        format == Format::kStream ? "dictionary batch 0" : "footer dictionary block 0";
    ExpectError(Read(writer.Finish(), format), StatusCode::kCorruption,
                where + ": delta dictionary 0 (field 'city') arrived before its base dictionary");
  }
}

TEST(DictionaryTest, DictionaryIdNoFieldUsesIsCorruption) {
  for (Format format : {Format::kStream, Format::kFile}) {
    DictionaryIpcWriter writer(CitySchema(), CityField(), format);
    writer.WriteDictionary(kCityId, Utf8({"Paris"}));
    writer.WriteDictionary(7, Utf8({"Oslo"}));
    const std::string where =
        format == Format::kStream ? "dictionary batch 1" : "footer dictionary block 1";
    ExpectError(Read(writer.Finish(), format), StatusCode::kCorruption,
                where + ": dictionary id 7 is not used by any field of the schema");
  }
}

TEST(DictionaryTest, DictionaryOfAnotherValueTypeIsCorruption) {
  DictionaryIpcWriter writer(CitySchema(), CityField());
  writer.WriteDictionary(kCityId, MakePrimitive<int64_t>(DataType::Int64(), {1, 2}));
  ExpectError(ReadStream(writer.Finish()), StatusCode::kCorruption,
              "dictionary batch 0: dictionary 0 (field 'city'): its data has 1 field nodes and 2 "
              "buffers, but values of type utf8 need 1 node and 3: it does not hold values of "
              "the field's type");
}

TEST(DictionaryTest, InvalidUtf8InADictionaryIsCorruption) {
  DictionaryIpcWriter writer(CitySchema(), CityField());
  writer.WriteDictionary(kCityId, MakeBinary(DataType::Utf8(), {std::string("\xff")}));
  auto read = ReadStream(writer.Finish());
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kCorruption) << read.status().ToString();
  EXPECT_EQ(read.status().message().rfind("dictionary batch 0: dictionary 0 (field 'city'): ", 0),
            0u)
      << read.status().message();
}

TEST(DictionaryTest, DictionaryBatchBeforeTheSchemaIsCorruption) {
  DictionaryIpcWriter writer(CitySchema(), CityField());
  writer.WriteDictionary(kCityId, Utf8({"Paris"}));
  const Buffer bytes = writer.Finish();
  // Drop the schema message (the first one).
  const auto schema_size = 8 + bit_util::LoadLE<int32_t>(bytes.data() + 4);
  ExpectError(ReadStream(bytes.Slice(schema_size, bytes.size() - schema_size)),
              StatusCode::kCorruption, "dictionary batch before the schema message");
}

TEST(DictionaryTest, BatchUsingADictionaryThatNeverArrivedIsCorruptionUnlessAllNull) {
  DictionaryIpcWriter writer(CitySchema(), CityField());
  writer.WriteBatch({Ids({1, 2}), Int8Indices({std::nullopt, std::nullopt})});
  writer.WriteBatch({Ids({3}), Int8Indices({0})});
  ExpectError(ReadStream(writer.Finish()), StatusCode::kCorruption,
              "record batch 1: field 'city' uses dictionary 0 before any dictionary batch "
              "defined it");
}

TEST(DictionaryTest, NullDictionaryValueInANonNullableFieldIsCorruption) {
  const SchemaPtr schema = MakeSchema({Field("city", DataType::Utf8(), false)});
  DictionaryIpcWriter writer(schema, {DictionaryField{0, 3, DataType::Int8()}});
  writer.WriteDictionary(3, Utf8({"Paris", std::nullopt}));
  writer.WriteBatch({Int8Indices({0, 1})});
  auto read = ReadStream(writer.Finish());
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kCorruption) << read.status().ToString();
  EXPECT_NE(read.status().message().find("city"), std::string::npos) << read.status().message();
}

TEST(DictionaryTest, FieldsMayShareADictionary) {
  const SchemaPtr schema =
      MakeSchema({Field("from", DataType::Utf8()), Field("to", DataType::Utf8())});
  DictionaryIpcWriter writer(
      schema, {DictionaryField{0, 5, DataType::Int8()}, DictionaryField{1, 5, DataType::UInt16()}});
  writer.WriteDictionary(5, Utf8({"Paris", "Lyon"}));
  writer.WriteBatch({Int8Indices({0, 1}), MakePrimitive<uint16_t>(DataType::UInt16(), {1, 1})});
  auto read = ReadStream(writer.Finish());
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(StringsOf(read->batches[0], 0), (Strings{"Paris", "Lyon"}));
  EXPECT_EQ(StringsOf(read->batches[0], 1), (Strings{"Lyon", "Lyon"}));
}

// Indices [2, null, 0] of every index type against dictionaries of several value types.
Array IndicesOf(const DataType& type) {
  const std::vector<std::optional<int64_t>> v = {2, std::nullopt, 0};
  ArrayBuilder builder(type);
  for (const auto& x : v) {
    if (!x) {
      builder.AppendNull();
      continue;
    }
    switch (type.id()) {
      case TypeId::kInt8: builder.AppendPrimitive<int8_t>(int8_t(*x)); break;
      case TypeId::kInt16: builder.AppendPrimitive<int16_t>(int16_t(*x)); break;
      case TypeId::kInt32: builder.AppendPrimitive<int32_t>(int32_t(*x)); break;
      case TypeId::kInt64: builder.AppendPrimitive<int64_t>(*x); break;
      case TypeId::kUInt8: builder.AppendPrimitive<uint8_t>(uint8_t(*x)); break;
      case TypeId::kUInt16: builder.AppendPrimitive<uint16_t>(uint16_t(*x)); break;
      case TypeId::kUInt32: builder.AppendPrimitive<uint32_t>(uint32_t(*x)); break;
      default: builder.AppendPrimitive<uint64_t>(uint64_t(*x)); break;
    }
  }
  return builder.Finish();
}

TEST(DictionaryTest, EveryIndexTypeAndSeveralValueTypesDecode) {
  const std::vector<DataType> index_types = {
      DataType::Int8(),  DataType::Int16(),  DataType::Int32(),  DataType::Int64(),
      DataType::UInt8(), DataType::UInt16(), DataType::UInt32(), DataType::UInt64()};
  const std::vector<Array> dictionaries = {
      MakeBinary(DataType::Utf8(), {"a", "bb", "ccc"}),
      MakeBinary(DataType::LargeUtf8(), {"a", "bb", "ccc"}),
      MakeBinary(DataType::Binary(), {std::string("\x00", 1), "\xff", "z"}),
      MakeBinary(DataType::LargeBinary(), {"x", "y", "zz"}),
      MakeBinary(DataType::FixedSizeBinary(2), {"ab", "cd", "ef"}),
      MakePrimitive<int64_t>(DataType::Int64(), {-5, 7, INT64_MAX}),
      MakePrimitive<uint8_t>(DataType::UInt8(), {1, 2, 255}),
      MakePrimitive<double>(DataType::Float64(), {0.5, 1.5, -2.25}),
      MakePrimitive<__int128>(DataType::Decimal128(10, 2), {1, 2, -3}),
      testing::MakeBool({true, false, false}),
  };
  for (const DataType& index_type : index_types) {
    for (const Array& dictionary : dictionaries) {
      SCOPED_TRACE(index_type.ToString() + " -> " + dictionary.type().ToString());
      const SchemaPtr schema = MakeSchema({Field("v", dictionary.type())});
      DictionaryIpcWriter writer(schema, {DictionaryField{0, 0, index_type}});
      writer.WriteDictionary(0, dictionary);
      writer.WriteBatch({IndicesOf(index_type)});
      auto read = ReadStream(writer.Finish());
      ASSERT_TRUE(read.ok()) << read.status().ToString();
      ASSERT_EQ(read->batches.size(), 1u);
      const Array& column = read->batches[0].column(0);
      ASSERT_EQ(column.type(), dictionary.type());
      ArrayBuilder expected(dictionary.type());
      ASSERT_TRUE(expected.AppendFrom(dictionary, 2).ok());
      expected.AppendNull();
      ASSERT_TRUE(expected.AppendFrom(dictionary, 0).ok());
      EXPECT_TRUE(column.Equals(expected.Finish()));
    }
  }
}

TEST(DictionaryTest, Uint64IndexAboveInt64MaxIsOutOfRange) {
  const SchemaPtr schema = MakeSchema({Field("v", DataType::Utf8())});
  DictionaryIpcWriter writer(schema, {DictionaryField{0, 0, DataType::UInt64()}});
  writer.WriteDictionary(0, Utf8({"a"}));
  writer.WriteBatch({MakePrimitive<uint64_t>(DataType::UInt64(), {UINT64_MAX})});
  ExpectError(ReadStream(writer.Finish()), StatusCode::kCorruption,
              "record batch 0: field 'v': index 18446744073709551615 at row 0 is out of range of "
              "dictionary 0 (1 values)");
}

TEST(DictionaryTest, DictionariesHeldCountTowardTheBodyLimit) {
  DictionaryIpcWriter writer(CitySchema(), CityField());
  writer.WriteDictionary(kCityId, Utf8({std::string(600, 'a')}));
  writer.WriteDictionary(kCityId, Utf8({std::string(600, 'b')}), /*is_delta=*/true);
  ReadOptions options;
  options.limits.max_body_bytes = 1024;
  auto read = ReadStream(writer.Finish(), options);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kResourceExhausted) << read.status().ToString();
  EXPECT_EQ(read.status().message().rfind("dictionary batch 1: delta dictionary 0 (field 'city') "
                                          "would bring the dictionaries held to ",
                                          0),
            0u)
      << read.status().message();
}

TEST(DictionaryTest, DictionaryLengthCountsTowardTheRowLimit) {
  DictionaryIpcWriter writer(CitySchema(), CityField());
  writer.WriteDictionary(kCityId, Utf8({"a", "b", "c"}));
  writer.WriteDictionary(kCityId, Utf8({"d", "e"}), /*is_delta=*/true);
  ReadOptions options;
  options.limits.max_batch_rows = 4;
  ExpectError(ReadStream(writer.Finish(), options), StatusCode::kResourceExhausted,
              "dictionary batch 1: delta dictionary 0 (field 'city') would hold 5 values, more "
              "than the limit of 4");
}

TEST(DictionaryTest, DecodedColumnAboveTheBodyLimitIsRefusedBeforeAllocating) {
  // 100 bytes of dictionary value repeated 64 times: 6400 bytes from a tiny body.
  DictionaryIpcWriter writer(CitySchema(), CityField());
  writer.WriteDictionary(kCityId, Utf8({std::string(100, 'x')}));
  writer.WriteBatch({Ids(std::vector<std::optional<int32_t>>(64, 1)),
                     Int8Indices(std::vector<std::optional<int8_t>>(64, 0))});
  ReadOptions options;
  options.limits.max_body_bytes = 4096;
  ExpectError(ReadStream(writer.Finish(), options), StatusCode::kResourceExhausted,
              "record batch 0: field 'city': the decoded column's data would take 6400 bytes, "
              "more than the limit of 4096");
}

TEST(DictionaryTest, DecodeDictionaryIndicesRefusesUtf8DataBeyond32BitOffsets) {
  // Not materialized: the size check comes first. 2^31 bytes from one 2^20-byte value.
  const Array dictionary = Utf8({std::string(1 << 20, 'x')});
  const Array indices =
      MakePrimitive<int8_t>(DataType::Int8(), std::vector<std::optional<int8_t>>(2048, int8_t{0}));
  auto decoded = DecodeDictionaryIndices(indices, dictionary, "dictionary 0", int64_t{1} << 40);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(decoded.status().message(),
            "the decoded column's data would take 2147483648 bytes, more than utf8's 32-bit "
            "offsets can address");
}

}  // namespace
}  // namespace higgins::arrow::ipc
