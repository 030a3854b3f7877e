#include "arrow/ipc/metadata.h"

#include <gtest/gtest.h>

#include <functional>

#include "arrow/ipc/test_util.h"
#include "format_generated.h"
#include "higgins/arrow/ipc/reader.h"

namespace higgins::arrow::ipc {
namespace {

namespace fb = ::flatbuffers;

// Copies into 8-byte aligned storage, as the framing layer does before decoding.
Result<MessageMetadata> Decode(const std::vector<uint8_t>& bytes, IpcLimits limits = {}) {
  const Buffer aligned = Buffer::Copy(bytes);
  return DecodeMessage(aligned.span(), limits);
}

// A Schema message with one field built by `make_field`, at metadata `version`.
std::vector<uint8_t> SchemaMessageWith(
    const std::function<fb::Offset<fbs::Field>(fb::FlatBufferBuilder&)>& make_field,
    fbs::MetadataVersion version = fbs::MetadataVersion_V5,
    fbs::Endianness endianness = fbs::Endianness_Little) {
  fb::FlatBufferBuilder fbb;
  const auto field = make_field(fbb);
  const auto fields = fbb.CreateVector(std::vector<fb::Offset<fbs::Field>>{field});
  const auto schema = fbs::CreateSchema(fbb, endianness, fields);
  fbb.Finish(fbs::CreateMessage(fbb, version, fbs::MessageHeader_Schema, schema.Union()));
  return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

// A field named `name` whose type is an empty table of union tag `tag`.
template <typename MakeType>
std::vector<uint8_t> FieldOfType(const char* name, fbs::Type tag, MakeType make_type) {
  return SchemaMessageWith([&](fb::FlatBufferBuilder& fbb) {
    const auto n = fbb.CreateString(name);
    const auto type = make_type(fbb);
    return fbs::CreateField(fbb, n, true, tag, type);
  });
}

void ExpectStatus(const Result<MessageMetadata>& result, StatusCode code,
                  std::string_view message) {
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), code) << result.status().ToString();
  EXPECT_EQ(result.status().message(), message);
}

TEST(MetadataTest, SchemaOfEveryTypeRoundTripsWithNullabilityAndMetadata) {
  const SchemaPtr schema = testing::AllTypesSchema();
  auto decoded = Decode(EncodeSchemaMessage(*schema));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->kind, MessageKind::kSchema);
  EXPECT_EQ(decoded->version, kMetadataV5);
  EXPECT_EQ(decoded->body_length, 0);
  EXPECT_EQ(*decoded->schema, *schema);
  EXPECT_FALSE(decoded->schema->field(0).nullable);
  EXPECT_EQ(decoded->schema->field(5).metadata,
            (KeyValueMetadata{{"origin", "sensor"}, {"unit", "mm"}}));
}

TEST(MetadataTest, RecordBatchHeaderRoundTrips) {
  RecordBatchHeader header;
  header.length = 5;
  header.nodes = {{5, 1}, {5, 0}};
  header.buffers = {{0, 1}, {8, 20}, {32, 0}, {32, 24}, {56, 7}};
  header.compression = Compression::kZstd;
  auto decoded = Decode(EncodeRecordBatchMessage(header, 64));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->kind, MessageKind::kRecordBatch);
  EXPECT_EQ(decoded->body_length, 64);
  EXPECT_EQ(decoded->batch.length, 5);
  EXPECT_EQ(decoded->batch.nodes, header.nodes);
  EXPECT_EQ(decoded->batch.buffers, header.buffers);
  EXPECT_EQ(decoded->batch.compression, Compression::kZstd);
}

TEST(MetadataTest, FooterRoundTrips) {
  const std::vector<FileBlock> blocks = {{8, 136, 64}, {208, 200, 1024}};
  const Buffer footer = Buffer::Copy(EncodeFooter(*testing::SimpleSchema(), blocks));
  auto decoded = DecodeFooter(footer.span(), {});
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded->schema, *testing::SimpleSchema());
  EXPECT_EQ(decoded->record_batches, blocks);
}

TEST(MetadataTest, VersionV4IsAcceptedAndOlderIsNotSupported) {
  auto utf8 = [](fb::FlatBufferBuilder& fbb) {
    return fbs::CreateField(fbb, fbb.CreateString("s"), true, fbs::Type_Utf8,
                            fbs::CreateUtf8(fbb).Union());
  };
  EXPECT_TRUE(Decode(SchemaMessageWith(utf8, fbs::MetadataVersion_V4)).ok());
  EXPECT_EQ(Decode(SchemaMessageWith(utf8, fbs::MetadataVersion_V3)).status().code(),
            StatusCode::kNotSupported);
  EXPECT_EQ(Decode(SchemaMessageWith(utf8, static_cast<fbs::MetadataVersion>(9))).status().code(),
            StatusCode::kNotSupported);
}

TEST(MetadataTest, BigEndianSchemaIsNotSupported) {
  auto i32 = [](fb::FlatBufferBuilder& fbb) {
    return fbs::CreateField(fbb, fbb.CreateString("x"), true, fbs::Type_Int,
                            fbs::CreateInt(fbb, 32, true).Union());
  };
  auto decoded = Decode(SchemaMessageWith(i32, fbs::MetadataVersion_V5, fbs::Endianness_Big));
  EXPECT_EQ(decoded.status().code(), StatusCode::kNotSupported);
}

TEST(MetadataTest, NestedTypesAreNotSupportedNamingFieldAndType) {
  ExpectStatus(Decode(FieldOfType("list_nullable", fbs::Type_List,
                                  [](auto& fbb) { return fbs::CreateList(fbb).Union(); })),
               StatusCode::kNotSupported, "field 'list_nullable': type List is not supported");
  ExpectStatus(Decode(FieldOfType("st", fbs::Type_Struct_,
                                  [](auto& fbb) { return fbs::CreateStruct_(fbb).Union(); })),
               StatusCode::kNotSupported, "field 'st': type Struct is not supported");
  ExpectStatus(Decode(FieldOfType("m", fbs::Type_Map,
                                  [](auto& fbb) { return fbs::CreateMap(fbb).Union(); })),
               StatusCode::kNotSupported, "field 'm': type Map is not supported");
  ExpectStatus(Decode(FieldOfType("iv", fbs::Type_Interval,
                                  [](auto& fbb) { return fbs::CreateInterval(fbb).Union(); })),
               StatusCode::kNotSupported, "field 'iv': type Interval is not supported");
  ExpectStatus(Decode(FieldOfType("v", fbs::Type_Utf8View,
                                  [](auto& fbb) { return fbs::CreateUtf8View(fbb).Union(); })),
               StatusCode::kNotSupported, "field 'v': type Utf8View is not supported");
}

TEST(MetadataTest, Decimal256IsNotSupported) {
  ExpectStatus(
      Decode(FieldOfType("d", fbs::Type_Decimal,
                         [](auto& fbb) { return fbs::CreateDecimal(fbb, 40, 2, 256).Union(); })),
      StatusCode::kNotSupported, "field 'd': type Decimal with bitWidth 256 is not supported");
}

TEST(MetadataTest, DictionaryEncodedFieldDecodesToItsValueType) {
  auto decoded = Decode(SchemaMessageWith([](fb::FlatBufferBuilder& fbb) {
    const auto name = fbb.CreateString("dict0");
    const auto type = fbs::CreateUtf8(fbb).Union();
    const auto index = fbs::CreateInt(fbb, 16, false);
    const auto dictionary = fbs::CreateDictionaryEncoding(fbb, 42, index);
    return fbs::CreateField(fbb, name, true, fbs::Type_Utf8, type, dictionary);
  }));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded->schema, Schema({Field("dict0", DataType::Utf8())}));
  EXPECT_EQ(decoded->dictionary_fields,
            (std::vector<DictionaryField>{{0, 42, DataType::UInt16()}}));
}

TEST(MetadataTest, DictionaryWithoutIndexTypeHasInt32Indices) {
  auto decoded = Decode(SchemaMessageWith([](fb::FlatBufferBuilder& fbb) {
    const auto name = fbb.CreateString("d");
    const auto type = fbs::CreateBinary(fbb).Union();
    const auto dictionary = fbs::CreateDictionaryEncoding(fbb, 1);
    return fbs::CreateField(fbb, name, true, fbs::Type_Binary, type, dictionary);
  }));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->dictionary_fields, (std::vector<DictionaryField>{{0, 1, DataType::Int32()}}));
}

TEST(MetadataTest, DictionaryIndexTypeOfBadWidthIsCorruption) {
  auto decoded = Decode(SchemaMessageWith([](fb::FlatBufferBuilder& fbb) {
    const auto name = fbb.CreateString("d");
    const auto type = fbs::CreateUtf8(fbb).Union();
    const auto dictionary = fbs::CreateDictionaryEncoding(fbb, 1, fbs::CreateInt(fbb, 12, true));
    return fbs::CreateField(fbb, name, true, fbs::Type_Utf8, type, dictionary);
  }));
  ExpectStatus(decoded, StatusCode::kCorruption,
               "field 'd': dictionary index type Int has bitWidth 12");
}

TEST(MetadataTest, DictionaryOfANestedTypeIsNotSupported) {
  auto decoded = Decode(SchemaMessageWith([](fb::FlatBufferBuilder& fbb) {
    const auto name = fbb.CreateString("tags");
    const auto type = fbs::CreateList(fbb).Union();
    const auto dictionary = fbs::CreateDictionaryEncoding(fbb, 1);
    return fbs::CreateField(fbb, name, true, fbs::Type_List, type, dictionary);
  }));
  ExpectStatus(decoded, StatusCode::kNotSupported,
               "field 'tags': dictionary-encoded type List is not supported: dictionary values "
               "must have a flat type (nested types, and the dictionaries nested in them, are not "
               "supported)");
}

TEST(MetadataTest, FieldsSharingADictionaryWithDifferentValueTypesIsCorruption) {
  const Schema schema({Field("a", DataType::Utf8()), Field("b", DataType::Int64())});
  const std::vector<DictionaryField> fields = {{0, 3, DataType::Int8()}, {1, 3, DataType::Int8()}};
  ExpectStatus(Decode(EncodeSchemaMessage(schema, fields)), StatusCode::kCorruption,
               "fields 'a' and 'b' share dictionary id 3 but their value types differ (utf8, "
               "int64)");
}

TEST(MetadataTest, DictionaryBatchMessageRoundTrips) {
  RecordBatchHeader header;
  header.length = 3;
  header.nodes = {{3, 0}};
  header.buffers = {{0, 0}, {0, 16}, {16, 8}};
  auto decoded = Decode(EncodeDictionaryBatchMessage(9, /*is_delta=*/true, header, 24));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->kind, MessageKind::kDictionaryBatch);
  EXPECT_EQ(decoded->dictionary_id, 9);
  EXPECT_TRUE(decoded->is_delta);
  EXPECT_EQ(decoded->body_length, 24);
  EXPECT_EQ(decoded->batch.length, 3);
  EXPECT_EQ(decoded->batch.nodes, header.nodes);
  EXPECT_EQ(decoded->batch.buffers, header.buffers);
}

TEST(MetadataTest, DictionaryBatchAboveTheRowLimitIsResourceExhausted) {
  RecordBatchHeader header;
  header.length = 11;
  IpcLimits limits;
  limits.max_batch_rows = 10;
  ExpectStatus(Decode(EncodeDictionaryBatchMessage(0, false, header, 0), limits),
               StatusCode::kResourceExhausted,
               "dictionary batch of 11 rows exceeds the limit of 10");
}

TEST(MetadataTest, FooterListsDictionaryBlocksAndFields) {
  const std::vector<FileBlock> batches = {{64, 120, 16}};
  const std::vector<FileBlock> dictionaries = {{8, 56, 8}};
  const std::vector<DictionaryField> fields = {{1, 0, DataType::Int32()}};
  const Buffer footer =
      Buffer::Copy(EncodeFooter(*testing::SimpleSchema(), batches, dictionaries, fields));
  auto decoded = DecodeFooter(footer.span(), IpcLimits{});
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded->schema, *testing::SimpleSchema());
  EXPECT_EQ(decoded->dictionary_fields, fields);
  EXPECT_EQ(decoded->dictionaries, dictionaries);
  EXPECT_EQ(decoded->record_batches, batches);
}

TEST(MetadataTest, PrimitiveWithChildrenIsNotSupported) {
  auto decoded = Decode(SchemaMessageWith([](fb::FlatBufferBuilder& fbb) {
    const auto child = fbs::CreateField(fbb, fbb.CreateString("c"), true, fbs::Type_Bool,
                                        fbs::CreateBool(fbb).Union());
    const auto children = fbb.CreateVector(std::vector<fb::Offset<fbs::Field>>{child});
    const auto name = fbb.CreateString("p");
    return fbs::CreateField(fbb, name, true, fbs::Type_Int, fbs::CreateInt(fbb, 8, true).Union(), 0,
                            children);
  }));
  EXPECT_EQ(decoded.status().code(), StatusCode::kNotSupported) << decoded.status().ToString();
}

TEST(MetadataTest, InvalidTypeParametersAreCorruption) {
  auto int7 = FieldOfType("x", fbs::Type_Int,
                          [](auto& fbb) { return fbs::CreateInt(fbb, 7, true).Union(); });
  EXPECT_EQ(Decode(int7).status().code(), StatusCode::kCorruption);
  auto time = FieldOfType("t", fbs::Type_Time, [](auto& fbb) {
    return fbs::CreateTime(fbb, fbs::TimeUnit_NANOSECOND, 32).Union();
  });
  EXPECT_EQ(Decode(time).status().code(), StatusCode::kCorruption);
  auto missing = SchemaMessageWith([](fb::FlatBufferBuilder& fbb) {
    return fbs::CreateField(fbb, fbb.CreateString("none"), true, fbs::Type_NONE, 0);
  });
  EXPECT_EQ(Decode(missing).status().code(), StatusCode::kCorruption);
}

TEST(MetadataTest, TypeDefaultsApplyWhenFieldsAreOmitted) {
  // Writers omit default-valued scalars: Date defaults to MILLISECOND, Time to (ms, 32).
  auto decoded = Decode(SchemaMessageWith([](fb::FlatBufferBuilder& fbb) {
    fbs::DateBuilder date(fbb);
    return fbs::CreateField(fbb, fbb.CreateString("d"), true, fbs::Type_Date,
                            date.Finish().Union());
  }));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->schema->field(0).type, DataType::Date64());
  decoded = Decode(SchemaMessageWith([](fb::FlatBufferBuilder& fbb) {
    fbs::TimeBuilder time(fbb);
    return fbs::CreateField(fbb, fbb.CreateString("t"), true, fbs::Type_Time,
                            time.Finish().Union());
  }));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->schema->field(0).type, DataType::Time32(TimeUnit::kMilli));
}

TEST(MetadataTest, TooManyFieldsIsResourceExhausted) {
  std::vector<Field> fields(50, Field("f", DataType::Int8()));
  IpcLimits limits;
  limits.max_fields = 10;
  EXPECT_EQ(Decode(EncodeSchemaMessage(Schema(fields)), limits).status().code(),
            StatusCode::kResourceExhausted);
}

TEST(MetadataTest, StringsThatAreNotUtf8AreCorruptionNamingTheString) {
  // Arrow requires UTF-8; names and metadata end up in JSON output and error messages.
  const std::string bad =
      "a\xFF"
      "b";
  const std::string overlong = "\xC0\xAF";
  const std::string surrogate = "\xED\xA0\x80";
  const Field ok("x", DataType::Int8());
  const std::vector<std::pair<Schema, std::string>> cases = {
      {Schema({Field(bad, DataType::Int8())}), "the name of field 0 is not valid UTF-8"},
      {Schema({ok, Field(overlong, DataType::Int8())}), "the name of field 1 is not valid UTF-8"},
      {Schema({ok, Field(surrogate, DataType::Int8())}), "the name of field 1 is not valid UTF-8"},
      {Schema({Field("x", DataType::Int8(), true, {{"k", "v"}, {bad, "v"}})}),
       "field 'x': custom metadata key 1 is not valid UTF-8"},
      {Schema({Field("x", DataType::Int8(), true, {{"k", bad}})}),
       "field 'x': custom metadata value of key 'k' is not valid UTF-8"},
      {Schema({ok}, {{bad, "v"}}), "schema: custom metadata key 0 is not valid UTF-8"},
      {Schema({ok}, {{"k", bad}}), "schema: custom metadata value of key 'k' is not valid UTF-8"},
      {Schema({Field("t", DataType::Timestamp(TimeUnit::kMilli, bad))}),
       "field 't': type Timestamp: time zone is not valid UTF-8"},
  };
  for (const auto& [schema, message] : cases) {
    ExpectStatus(Decode(EncodeSchemaMessage(schema)), StatusCode::kCorruption, message);
  }
  // Valid multi-byte UTF-8 everywhere is fine.
  const std::string text = "caf\xC3\xA9 \xF0\x9F\x93\x88";
  const Schema good(
      {Field(text, DataType::Timestamp(TimeUnit::kMilli, text), true, {{text, text}})},
      {{text, text}});
  auto decoded = Decode(EncodeSchemaMessage(good));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded->schema, good);
}

TEST(MetadataTest, RecordBatchLengthAboveTheRowLimitIsResourceExhausted) {
  RecordBatchHeader header;
  header.length = IpcLimits{}.max_batch_rows;
  EXPECT_TRUE(Decode(EncodeRecordBatchMessage(header, 0)).ok());
  header.length += 1;
  ExpectStatus(Decode(EncodeRecordBatchMessage(header, 0)), StatusCode::kResourceExhausted,
               "record batch of 2147483648 rows exceeds the limit of 2147483647");
  IpcLimits limits;
  limits.max_batch_rows = 100;
  header.length = 101;
  ExpectStatus(Decode(EncodeRecordBatchMessage(header, 0), limits), StatusCode::kResourceExhausted,
               "record batch of 101 rows exceeds the limit of 100");
}

TEST(MetadataTest, UnknownCompressionCodecIsNotSupported) {
  fb::FlatBufferBuilder fbb;
  const auto compression = fbs::CreateBodyCompression(fbb, static_cast<fbs::CompressionType>(7));
  const auto batch = fbs::CreateRecordBatch(fbb, 0, 0, 0, compression);
  fbb.Finish(fbs::CreateMessage(fbb, fbs::MetadataVersion_V5, fbs::MessageHeader_RecordBatch,
                                batch.Union()));
  auto decoded = Decode({fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()});
  EXPECT_EQ(decoded.status().code(), StatusCode::kNotSupported) << decoded.status().ToString();
}

TEST(MetadataTest, TruncatedOrGarbageFlatbufferIsCorruption) {
  std::vector<uint8_t> message = EncodeSchemaMessage(*testing::AllTypesSchema());
  for (size_t keep : {size_t{0}, size_t{4}, size_t{12}, message.size() / 2}) {
    std::vector<uint8_t> truncated(message.begin(), message.begin() + long(keep));
    EXPECT_EQ(Decode(truncated).status().code(), StatusCode::kCorruption) << keep;
  }
  std::vector<uint8_t> garbage(message.size(), 0x5A);
  EXPECT_EQ(Decode(garbage).status().code(), StatusCode::kCorruption);
}

}  // namespace
}  // namespace higgins::arrow::ipc
