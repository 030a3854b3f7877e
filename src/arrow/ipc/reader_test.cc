#include "higgins/arrow/ipc/reader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "arrow/ipc/framing.h"
#include "arrow/ipc/message_writer.h"
#include "arrow/ipc/test_util.h"
#include "higgins/arrow/ipc/writer.h"
#include "higgins/bit_util.h"

namespace higgins::arrow::ipc {
namespace {

using testing::SimpleBatch;
using testing::SimpleSchema;
using testing::ToBuffer;
using testing::ToVector;

std::vector<uint8_t> SimpleFile(int batches = 2) {
  std::vector<RecordBatch> list;
  for (int i = 0; i < batches; ++i) list.push_back(SimpleBatch(4 + i, i));
  auto bytes = WriteFile(SimpleSchema(), list);
  EXPECT_TRUE(bytes.ok());
  return ToVector(*bytes);
}

StatusCode ReadCode(const std::vector<uint8_t>& bytes) {
  return ReadFile(ToBuffer(bytes)).status().code();
}

void ExpectError(const Status& st, StatusCode code, const std::string& message) {
  EXPECT_EQ(st.code(), code) << st.ToString();
  EXPECT_EQ(st.message(), message);
}

std::string Describe(size_t index, const FileBlock& b) {
  return "footer block " + std::to_string(index) + " (offset " + std::to_string(b.offset) +
         ", metaDataLength " + std::to_string(b.metadata_length) + ", bodyLength " +
         std::to_string(b.body_length) + ")";
}

// Builds a file by hand: magic, optionally a schema message, the batches, EOS, then a footer
// listing `blocks` (or the real blocks when empty) and the trailer.
struct HandMadeFile {
  std::vector<uint8_t> bytes;
  std::vector<FileBlock> blocks;
};

HandMadeFile MakeFile(bool with_schema_message, const std::vector<RecordBatch>& batches,
                      const Schema& footer_schema, const Schema* message_schema = nullptr) {
  BufferBuilder out;
  out.Append(kFileMagic.data(), kFileMagic.size());
  out.AppendZeros(2);
  if (with_schema_message) {
    EXPECT_TRUE(
        AppendSchemaMessage(message_schema ? *message_schema : footer_schema, {}, out).ok());
  }
  RecordBatchSerializer serializer({});
  HandMadeFile file;
  for (const RecordBatch& batch : batches) {
    const auto offset = static_cast<int64_t>(out.size());
    auto extent = serializer.Append(batch, out);
    EXPECT_TRUE(extent.ok());
    file.blocks.push_back({offset, extent->metadata_length, extent->body_length});
  }
  out.Append(kEndOfStream, sizeof(kEndOfStream));
  file.bytes = ToVector(out.Finish());
  return file;
}

std::vector<uint8_t> Finish(HandMadeFile file, const Schema& footer_schema) {
  const std::vector<uint8_t> footer = EncodeFooter(footer_schema, file.blocks);
  file.bytes.insert(file.bytes.end(), footer.begin(), footer.end());
  uint8_t length[4];
  bit_util::StoreLE<int32_t>(length, static_cast<int32_t>(footer.size()));
  file.bytes.insert(file.bytes.end(), length, length + 4);
  file.bytes.insert(file.bytes.end(), kFileMagic.begin(), kFileMagic.end());
  return file.bytes;
}

TEST(FileReaderTest, FileWithoutLeadingSchemaMessageReadsFromTheFooter) {
  // apache-arrow JS writes files like this: magic, then straight to the first batch.
  const std::vector<RecordBatch> batches = {SimpleBatch(3), SimpleBatch(6, 1)};
  const auto bytes = Finish(MakeFile(false, batches, *SimpleSchema()), *SimpleSchema());
  auto read = ReadFile(ToBuffer(bytes));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(*read->schema, *SimpleSchema());
  ASSERT_EQ(read->batches.size(), 2u);
  EXPECT_TRUE(read->batches[1].Equals(batches[1]));
}

TEST(FileReaderTest, BatchesAreZeroCopyViewsOfTheFile) {
  const Buffer file = ToBuffer(SimpleFile());
  auto read = ReadFile(file);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->batches[0].column(0).data().buffers[1].owner(), file.owner());
}

TEST(FileReaderTest, SchemaMessageDifferentFromFooterIsCorruption) {
  const Schema other({Field("id", DataType::Int32(), false), Field("name", DataType::Binary())});
  auto file = MakeFile(true, {SimpleBatch(2)}, *SimpleSchema(), &other);
  auto read = ReadFile(ToBuffer(Finish(std::move(file), *SimpleSchema())));
  EXPECT_EQ(read.status().code(), StatusCode::kCorruption) << read.status().ToString();
}

TEST(FileReaderTest, BadLeadingMagicIsCorruption) {
  auto bytes = SimpleFile();
  bytes[0] = 'X';
  EXPECT_EQ(ReadCode(bytes), StatusCode::kCorruption);
  EXPECT_EQ(ReadCode({'A', 'R', 'R', 'O', 'W', '1'}), StatusCode::kCorruption);
}

TEST(FileReaderTest, BadTrailingMagicIsCorruption) {
  auto bytes = SimpleFile();
  bytes.back() = '2';
  EXPECT_EQ(ReadCode(bytes), StatusCode::kCorruption);
}

TEST(FileReaderTest, FooterLengthOutOfBoundsIsCorruption) {
  const auto good = SimpleFile();
  for (int32_t length : {0, -1, INT32_MIN, static_cast<int32_t>(good.size()),
                         static_cast<int32_t>(good.size() - 17), INT32_MAX}) {
    auto bytes = good;
    bit_util::StoreLE<int32_t>(bytes.data() + bytes.size() - 10, length);
    EXPECT_EQ(ReadCode(bytes), StatusCode::kCorruption) << length;
  }
}

TEST(FileReaderTest, FooterThatIsNotAFlatbufferIsCorruption) {
  auto bytes = SimpleFile();
  const auto length = bit_util::LoadLE<int32_t>(bytes.data() + bytes.size() - 10);
  for (int32_t i = 0; i < length; ++i) bytes[bytes.size() - 10 - size_t(length) + size_t(i)] = 0xEE;
  EXPECT_EQ(ReadCode(bytes), StatusCode::kCorruption);
}

TEST(FileReaderTest, BlockOutsideTheDataSectionIsCorruption) {
  const std::vector<RecordBatch> batches = {SimpleBatch(3)};
  for (auto mutate : std::vector<void (*)(FileBlock&)>{
           [](FileBlock& b) { b.offset = 1 << 20; },
           [](FileBlock& b) { b.offset = -8; },
           [](FileBlock& b) { b.offset = 0; },
           [](FileBlock& b) { b.body_length += 1 << 20; },
           [](FileBlock& b) { b.body_length = -8; },
           [](FileBlock& b) { b.metadata_length = -8; },
           [](FileBlock& b) { b.metadata_length = 0; },
       }) {
    auto file = MakeFile(true, batches, *SimpleSchema());
    mutate(file.blocks[0]);
    const std::string expected =
        Describe(0, file.blocks[0]) + " lies outside the file's data section";
    ExpectError(ReadFile(ToBuffer(Finish(std::move(file), *SimpleSchema()))).status(),
                StatusCode::kCorruption, expected);
  }
}

TEST(FileReaderTest, BlockAtAnUnalignedPlaceIsCorruptionSayingSo) {
  for (auto mutate : std::vector<void (*)(FileBlock&)>{
           [](FileBlock& b) { b.offset += 4; },
           [](FileBlock& b) { b.metadata_length += 3; },
           [](FileBlock& b) { b.metadata_length = 4; },
       }) {
    auto file = MakeFile(true, {SimpleBatch(3)}, *SimpleSchema());
    mutate(file.blocks[0]);
    const std::string expected = Describe(0, file.blocks[0]) + " is not 8-byte aligned";
    ExpectError(ReadFile(ToBuffer(Finish(std::move(file), *SimpleSchema()))).status(),
                StatusCode::kCorruption, expected);
  }
}

TEST(FileReaderTest, BlockMetaDataLengthDisagreeingWithTheMessagePrefixIsCorruption) {
  // Only the footer's metaDataLength changes; trusting it would read the body 8 bytes off and
  // decode wrong values without an error.
  for (int32_t delta : {8, -8}) {
    auto file = MakeFile(true, {SimpleBatch(3), SimpleBatch(5, 1)}, *SimpleSchema());
    const int32_t real = file.blocks[1].metadata_length;
    file.blocks[1].metadata_length += delta;
    const std::string expected =
        Describe(1, file.blocks[1]) + " disagrees with its message, whose 8-byte prefix and " +
        std::to_string(real - 8) + " bytes of metadata span " + std::to_string(real) + " bytes";
    ExpectError(ReadFile(ToBuffer(Finish(std::move(file), *SimpleSchema()))).status(),
                StatusCode::kCorruption, expected);
  }
}

TEST(FileReaderTest, BlockNotAtAMessagePrefixIsCorruption) {
  {  // the end-of-stream marker: continuation, then size 0
    auto file = MakeFile(true, {SimpleBatch(3)}, *SimpleSchema());
    const auto eos = static_cast<int64_t>(file.bytes.size()) - 8;
    file.blocks[0] = {eos, 8, 0};
    ExpectError(ReadFile(ToBuffer(Finish(std::move(file), *SimpleSchema()))).status(),
                StatusCode::kCorruption,
                "footer block 0: no message at offset " + std::to_string(eos) +
                    ": its prefix declares metadata size 0");
  }
  {  // neither the continuation marker nor a positive legacy size
    auto file = MakeFile(true, {SimpleBatch(3)}, *SimpleSchema());
    const int64_t offset = file.blocks[0].offset;
    bit_util::StoreLE<int32_t>(file.bytes.data() + offset, -2);
    ExpectError(ReadFile(ToBuffer(Finish(std::move(file), *SimpleSchema()))).status(),
                StatusCode::kCorruption,
                "footer block 0: no message at offset " + std::to_string(offset) +
                    ": its prefix starts with -2");
  }
}

TEST(FileReaderTest, BlockWithLegacyFramingIsRead) {
  // Pre-0.15 framing: int32 size (flatbuffer + 4 bytes of padding), no continuation marker. The
  // block spans the same bytes as with the marker.
  const std::vector<RecordBatch> batches = {SimpleBatch(3), SimpleBatch(6, 1)};
  auto file = MakeFile(false, batches, *SimpleSchema());
  for (const FileBlock& block : file.blocks) {
    uint8_t* message = file.bytes.data() + block.offset;
    const auto size = bit_util::LoadLE<int32_t>(message + 4);
    std::memmove(message + 4, message + 8, static_cast<size_t>(size));
    bit_util::StoreLE<int32_t>(message, size + 4);
    bit_util::StoreLE<int32_t>(message + 4 + size, 0);
  }
  auto read = ReadFile(ToBuffer(Finish(std::move(file), *SimpleSchema())));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->batches.size(), 2u);
  EXPECT_TRUE(read->batches[0].Equals(batches[0]));
  EXPECT_TRUE(read->batches[1].Equals(batches[1]));
}

TEST(FileReaderTest, OnlyTheBatchesTheFooterListsAreRead) {
  // Like Arrow C++ and Java: the footer is the index; a batch it does not list is ignored and
  // one listed twice is read twice.
  const std::vector<RecordBatch> batches = {SimpleBatch(3), SimpleBatch(4, 1), SimpleBatch(5, 2)};
  auto file = MakeFile(true, batches, *SimpleSchema());
  file.blocks = {file.blocks[2], file.blocks[0], file.blocks[2]};
  auto read = ReadFile(ToBuffer(Finish(std::move(file), *SimpleSchema())));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->batches.size(), 3u);
  EXPECT_TRUE(read->batches[0].Equals(batches[2]));
  EXPECT_TRUE(read->batches[1].Equals(batches[0]));
  EXPECT_TRUE(read->batches[2].Equals(batches[2]));
}

TEST(FileReaderTest, FileTooShortForItsFramingSaysItIsTruncated) {
  for (const std::string& bytes : {std::string("ARROW1"), std::string("ARROW1\0\0", 8),
                                   std::string("ARROW1\0\0\x01\0\0\0ARROW1", 18)}) {
    ExpectError(ReadFile(Buffer::Copy(bytes)).status(), StatusCode::kCorruption,
                "truncated Arrow IPC file: " + std::to_string(bytes.size()) +
                    " bytes, too short for the magics, a footer and its length (19 bytes at "
                    "least)");
  }
}

TEST(LooksLikeIpcTest, StreamsAndFilesDoAndTextDoesNot) {
  auto stream = WriteStream(SimpleSchema(), {SimpleBatch(2)});
  ASSERT_TRUE(stream.ok());
  EXPECT_TRUE(LooksLikeIpc(stream->view()));
  EXPECT_TRUE(LooksLikeIpc(ToBuffer(SimpleFile(1)).view()));
  EXPECT_TRUE(LooksLikeIpc(std::string_view("ARROW1\0\0", 8)));
  EXPECT_TRUE(LooksLikeIpc("\xFF\xFF\xFF\xFF"));
  for (std::string_view text :
       {"", "ARROW", "\xFF\xFF\xFF", "{\"id\":1}", "id,data\n", "\xEF\xBB\xBF[", "\x1F\x8B\x08"}) {
    EXPECT_FALSE(LooksLikeIpc(text)) << text;
  }
}

TEST(FileReaderTest, FooterSchemaWithInvalidUtf8IsCorruption) {
  const Schema bad(
      {Field("a\xFF"
             "b",
             DataType::Int32())});
  auto file = MakeFile(false, {}, *SimpleSchema());
  ExpectError(ReadFile(ToBuffer(Finish(std::move(file), bad))).status(), StatusCode::kCorruption,
              "file footer: the name of field 0 is not valid UTF-8");
}

TEST(FileReaderTest, BlockBodyLengthDisagreeingWithMessageIsCorruption) {
  auto file = MakeFile(true, {SimpleBatch(3)}, *SimpleSchema());
  file.blocks[0].body_length -= 8;
  auto read = ReadFile(ToBuffer(Finish(std::move(file), *SimpleSchema())));
  EXPECT_EQ(read.status().code(), StatusCode::kCorruption) << read.status().ToString();
}

TEST(FileReaderTest, BlockPointingAtTheSchemaMessageIsCorruption) {
  auto file = MakeFile(true, {SimpleBatch(3)}, *SimpleSchema());
  file.blocks[0].offset = kFileHeaderSize;
  file.blocks[0].metadata_length =
      static_cast<int32_t>(8 + bit_util::LoadLE<int32_t>(file.bytes.data() + kFileHeaderSize + 4));
  file.blocks[0].body_length = 0;
  auto read = ReadFile(ToBuffer(Finish(std::move(file), *SimpleSchema())));
  EXPECT_EQ(read.status().code(), StatusCode::kCorruption) << read.status().ToString();
}

TEST(FileReaderTest, ReadStreamOrFileDetectsTheFormat) {
  auto file = ReadStreamOrFile(ToBuffer(SimpleFile(3)));
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ(file->batches.size(), 3u);
  auto stream_bytes = WriteStream(SimpleSchema(), {SimpleBatch(2)});
  ASSERT_TRUE(stream_bytes.ok());
  auto stream = ReadStreamOrFile(*stream_bytes);
  ASSERT_TRUE(stream.ok()) << stream.status().ToString();
  EXPECT_EQ(stream->batches.size(), 1u);
}

TEST(FileReaderTest, FileFedToTheStreamReaderIsCorruptionSayingSo) {
  const Status st = ReadStream(ToBuffer(SimpleFile())).status();
  EXPECT_EQ(st.code(), StatusCode::kCorruption);
  EXPECT_NE(st.message().find("file"), std::string::npos) << st.ToString();
}

// ReadRecordBatchMessage: one batch message decoded against a schema the caller already has.

struct SplitStream {
  Buffer schema_message;
  Buffer batch_message;
};

SplitStream WriteSplit(const RecordBatch& batch) {
  StreamWriter writer(batch.schema());
  SplitStream split{writer.TakeBytes(), Buffer()};
  EXPECT_TRUE(writer.WriteBatch(batch).ok());
  split.batch_message = writer.TakeBytes();
  return split;
}

TEST(ReadRecordBatchMessageTest, DecodesAgainstTheGivenSchemaZeroCopy) {
  const RecordBatch batch = SimpleBatch(7);
  const SplitStream split = WriteSplit(batch);
  auto read = ReadRecordBatchMessage(SimpleSchema(), split.batch_message);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_TRUE(read->Equals(batch));
  const uint8_t* first = read->column(0).data().buffers[1].data();
  EXPECT_GE(first, split.batch_message.data());
  EXPECT_LT(first, split.batch_message.data() + split.batch_message.size());
}

TEST(ReadRecordBatchMessageTest, CutOrOverlongMessageIsCorruption) {
  const SplitStream split = WriteSplit(SimpleBatch(7));
  const std::vector<uint8_t> whole = ToVector(split.batch_message);
  for (size_t n : {size_t{0}, size_t{4}, size_t{12}, whole.size() - 8}) {
    std::vector<uint8_t> cut(whole.begin(), whole.begin() + static_cast<ptrdiff_t>(n));
    EXPECT_EQ(ReadRecordBatchMessage(SimpleSchema(), ToBuffer(cut)).status().code(),
              StatusCode::kCorruption)
        << n;
  }
  std::vector<uint8_t> longer = whole;
  longer.resize(whole.size() + 8, 0);
  EXPECT_EQ(ReadRecordBatchMessage(SimpleSchema(), ToBuffer(longer)).status().code(),
            StatusCode::kCorruption);
}

TEST(ReadRecordBatchMessageTest, SchemaMessageIsCorruption) {
  const SplitStream split = WriteSplit(SimpleBatch(3));
  EXPECT_EQ(ReadRecordBatchMessage(SimpleSchema(), split.schema_message).status().code(),
            StatusCode::kCorruption);
}

}  // namespace
}  // namespace higgins::arrow::ipc
