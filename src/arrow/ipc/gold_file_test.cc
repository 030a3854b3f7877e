// Smoke checks against Arrow's integration "gold" files (written by Arrow's reference
// implementations). The value-by-value conformance test lives in tests/conformance; here we only
// check that supported cases decode, that stream and file forms agree, and that unsupported
// cases fail cleanly with NotSupported naming the type.
#include <gtest/gtest.h>

#include "arrow/ipc/stream_decoder.h"
#include "arrow/ipc/test_util.h"
#include "higgins/arrow/ipc/reader.h"

namespace higgins::arrow::ipc {
namespace {

using testing::ReadSharedFile;

constexpr const char* kGoldDir = "testdata/arrow-integration/";

Buffer Gold(const std::string& name) {
  Buffer bytes = ReadSharedFile(std::string(kGoldDir) + name);
  if (bytes.empty()) ADD_FAILURE() << "missing gold file " << name;
  return bytes;
}

void ExpectSameBatches(const ReadResult& a, const ReadResult& b) {
  ASSERT_NE(a.schema, nullptr);
  ASSERT_NE(b.schema, nullptr);
  EXPECT_EQ(*a.schema, *b.schema);
  ASSERT_EQ(a.batches.size(), b.batches.size());
  for (size_t i = 0; i < a.batches.size(); ++i) {
    EXPECT_TRUE(a.batches[i].Equals(b.batches[i])) << "batch " << i;
  }
}

void ExpectStreamAndFileAgree(const std::string& stem) {
  auto stream = ReadStream(Gold(stem + ".stream"));
  ASSERT_TRUE(stream.ok()) << stem << ": " << stream.status().ToString();
  auto file = ReadFile(Gold(stem + ".arrow_file"));
  ASSERT_TRUE(file.ok()) << stem << ": " << file.status().ToString();
  ExpectSameBatches(*stream, *file);
}

TEST(GoldFileTest, PrimitiveStreamAndFileDecodeToTheSameBatches) {
  ExpectStreamAndFileAgree("1.0.0-littleendian/generated_primitive");
  auto stream = ReadStream(Gold("1.0.0-littleendian/generated_primitive.stream"));
  ASSERT_TRUE(stream.ok());
  EXPECT_GT(stream->batches.size(), 0u);
  EXPECT_GT(stream->schema->num_fields(), 10u);
}

TEST(GoldFileTest, OtherSupportedCasesDecode) {
  for (const char* stem : {"generated_primitive_zerolength", "generated_primitive_no_batches",
                           "generated_primitive_large_offsets", "generated_datetime",
                           "generated_null", "generated_null_trivial"}) {
    ExpectStreamAndFileAgree(std::string("1.0.0-littleendian/") + stem);
  }
}

TEST(GoldFileTest, DecimalValuesWiderThanTheirPrecisionDecode) {
  // Arrow's generator wrote 12810 into a decimal128(3, 2) column; Higgins reads it as written.
  auto stream = ReadStream(Gold("1.0.0-littleendian/generated_decimal.stream"));
  ASSERT_TRUE(stream.ok()) << stream.status().ToString();
  auto file = ReadFile(Gold("1.0.0-littleendian/generated_decimal.arrow_file"));
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ExpectSameBatches(*stream, *file);
}

TEST(GoldFileTest, DictionaryCasesDecodeToTheirValueTypes) {
  // Checked value by value against the JSON in tests/conformance.
  for (const char* stem : {"generated_dictionary", "generated_dictionary_unsigned"}) {
    ExpectStreamAndFileAgree(std::string("1.0.0-littleendian/") + stem);
  }
  auto stream = ReadStream(Gold("1.0.0-littleendian/generated_dictionary.stream"));
  ASSERT_TRUE(stream.ok()) << stream.status().ToString();
  EXPECT_EQ(stream->schema->field(0).type, DataType::Utf8());
  EXPECT_EQ(stream->schema->field(2).type, DataType::Int64());
  ASSERT_EQ(stream->batches.size(), 2u);
  EXPECT_EQ(stream->batches[0].num_rows(), 7);
}

TEST(GoldFileTest, NestedDictionaryIsNotSupportedNamingTheField) {
  for (const char* ext : {".stream", ".arrow_file"}) {
    auto read =
        ReadStreamOrFile(Gold(std::string("1.0.0-littleendian/generated_nested_dictionary") + ext));
    EXPECT_EQ(read.status().code(), StatusCode::kNotSupported) << read.status().ToString();
    EXPECT_NE(read.status().message().find(
                  "field 'list_dict': dictionary-encoded type List is not supported"),
              std::string::npos)
        << read.status().message();
  }
}

TEST(GoldFileTest, CompressedCasesDecode) {
  for (const char* stem : {"generated_lz4", "generated_zstd", "generated_uncompressible_lz4",
                           "generated_uncompressible_zstd"}) {
    ExpectStreamAndFileAgree(std::string("2.0.0-compression/") + stem);
  }
}

TEST(GoldFileTest, ByteAtATimeDecodeOfAGoldStreamEqualsReadStream) {
  const Buffer bytes = Gold("1.0.0-littleendian/generated_primitive.stream");
  auto whole = ReadStream(bytes);
  ASSERT_TRUE(whole.ok());
  StreamDecoder decoder;
  for (size_t i = 0; i < bytes.size(); ++i) {
    ASSERT_TRUE(decoder.Consume(bytes.span().subspan(i, 1)).ok()) << "byte " << i;
  }
  ASSERT_TRUE(decoder.Close().ok());
  ReadResult incremental{decoder.schema(), {}};
  while (auto event = decoder.Poll()) {
    if (event->kind == StreamDecoder::EventKind::kRecordBatch) {
      incremental.batches.push_back(event->batch);
    }
  }
  ExpectSameBatches(*whole, incremental);
}

TEST(GoldFileTest, NestedStreamIsNotSupportedNamingTheType) {
  auto read = ReadStream(Gold("1.0.0-littleendian/generated_nested.stream"));
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kNotSupported) << read.status().ToString();
  EXPECT_NE(read.status().message().find("field '"), std::string::npos) << read.status().message();
  EXPECT_NE(read.status().message().find("is not supported"), std::string::npos);
  auto file = ReadFile(Gold("1.0.0-littleendian/generated_nested.arrow_file"));
  EXPECT_EQ(file.status().code(), StatusCode::kNotSupported) << file.status().ToString();
}

TEST(GoldFileTest, UnsupportedCasesFailWithNotSupported) {
  for (const char* stem :
       {"generated_decimal256", "generated_interval", "generated_map", "generated_union",
        "generated_recursive_nested", "generated_nested_large_offsets",
        "generated_nested_dictionary", "generated_map_non_canonical", "generated_custom_metadata",
        "generated_duplicate_fieldnames"}) {
    for (const char* ext : {".stream", ".arrow_file"}) {
      const std::string name = std::string("1.0.0-littleendian/") + stem + ext;
      auto read = ReadStreamOrFile(Gold(name));
      EXPECT_EQ(read.status().code(), StatusCode::kNotSupported)
          << name << ": " << read.status().ToString();
    }
  }
}

}  // namespace
}  // namespace higgins::arrow::ipc
