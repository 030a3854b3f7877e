#include "record_splitter.h"

#include <gtest/gtest.h>

#include <vector>

namespace higgins::cli {
namespace {

// Feeds `input` in pieces of `piece` bytes and returns every chunk.
std::vector<Chunk> Split(SplitMode mode, std::string_view input, uint64_t max_records,
                         size_t piece = 1 << 20, size_t max_bytes = 1 << 20) {
  RecordSplitter splitter(mode, {.max_records = max_records, .max_bytes = max_bytes});
  std::vector<Chunk> chunks;
  for (size_t at = 0; at < input.size(); at += piece) {
    splitter.Append(input.substr(at, piece));
    while (auto chunk = splitter.Next()) chunks.push_back(*chunk);
  }
  splitter.Finish();
  while (auto chunk = splitter.Next()) chunks.push_back(*chunk);
  return chunks;
}

std::vector<std::string> Texts(const std::vector<Chunk>& chunks) {
  std::vector<std::string> texts;
  for (const Chunk& c : chunks) texts.push_back(c.text);
  return texts;
}

TEST(RecordSplitter, NdjsonChunksHoldMaxRecords) {
  auto chunks = Split(SplitMode::kJson, "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n", 2);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].text, "{\"a\":1}\n{\"a\":2}\n");
  EXPECT_EQ(chunks[0].records, 2u);
  EXPECT_EQ(chunks[0].first_byte, 0u);
  EXPECT_EQ(chunks[1].text, "{\"a\":3}\n");
  EXPECT_EQ(chunks[1].records, 1u);
  EXPECT_EQ(chunks[1].first_byte, 16u);
}

TEST(RecordSplitter, SameChunksWhateverThePieces) {
  const std::string input = "{\"a\":1}\n\n{\"a\":\"}\\\"\\n{\"}\n{\n \"a\": [3,\n4]\n}\n{\"a\":5}";
  const auto whole = Texts(Split(SplitMode::kJson, input, 2));
  for (size_t piece = 1; piece < input.size(); ++piece) {
    EXPECT_EQ(Texts(Split(SplitMode::kJson, input, 2, piece)), whole) << piece;
  }
  ASSERT_EQ(whole.size(), 2u);
  EXPECT_EQ(whole[1], "{\n \"a\": [3,\n4]\n}\n{\"a\":5}");
}

TEST(RecordSplitter, ObjectSpanningLinesStaysWhole) {
  auto chunks =
      Split(SplitMode::kJson, "{\n  \"id\": \"a\",\n  \"data\": 1\n}\n{\"id\":\"b\"}\n", 1);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].text, "{\n  \"id\": \"a\",\n  \"data\": 1\n}\n");
}

TEST(RecordSplitter, BracesAndNewlinesInsideStringsAreText) {
  auto chunks = Split(SplitMode::kJson, "{\"a\":\"{[\\\"\"}\n{\"a\":\"}\"}\n", 1);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].text, "{\"a\":\"{[\\\"\"}\n");
}

TEST(RecordSplitter, BlankLinesAreNotRecords) {
  auto chunks = Split(SplitMode::kJson, "\n\n{\"a\":1}\n\r\n\n{\"a\":2}\n\n", 1);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].records, 1u);
  EXPECT_EQ(chunks[1].records, 1u);
  EXPECT_EQ(chunks[1].first_byte, 10u);
}

TEST(RecordSplitter, OnlyBlankInputHasNoChunks) {
  EXPECT_TRUE(Split(SplitMode::kJson, " \n\n \r\n", 1).empty());
  EXPECT_TRUE(Split(SplitMode::kCsv, "", 1).empty());
}

TEST(RecordSplitter, TruncatedLastValueIsPassedOnForTheReader) {
  auto chunks = Split(SplitMode::kJson, "{\"a\":1}\n{\"a\":", 5);
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0].text, "{\"a\":1}\n{\"a\":");
  EXPECT_EQ(chunks[0].records, 2u);
}

TEST(RecordSplitter, SeveralValuesOnOneLineCountEach) {
  auto chunks = Split(SplitMode::kJson, "{\"a\":1} {\"a\":2}\n{\"a\":3}\n", 2);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].records, 2u);
}

TEST(RecordSplitter, MaxBytesCutsEarlier) {
  auto chunks = Split(SplitMode::kJson, "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n", 100, 1 << 20, 8);
  EXPECT_EQ(chunks.size(), 3u);
}

TEST(RecordSplitter, CsvHeaderStartsEveryChunk) {
  auto chunks = Split(SplitMode::kCsv, "id,data\na,1\nb,2\nc,3\n", 2);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].text, "id,data\na,1\nb,2\n");
  EXPECT_EQ(chunks[0].first_byte, 8u);
  EXPECT_EQ(chunks[1].text, "id,data\nc,3\n");
  EXPECT_EQ(chunks[1].records, 1u);
  EXPECT_EQ(chunks[1].first_byte, 16u);
}

TEST(RecordSplitter, CsvQuotedLineBreaksStayInTheRecord) {
  const std::string input = "id,data\r\n\"a\nb\",1\r\n\"x\"\"\ny\",2\r\n\"c\",3";
  const auto whole = Split(SplitMode::kCsv, input, 1);
  ASSERT_EQ(whole.size(), 3u);
  EXPECT_EQ(whole[0].text, "id,data\r\n\"a\nb\",1\r\n");
  EXPECT_EQ(whole[1].text, "id,data\r\n\"x\"\"\ny\",2\r\n");
  EXPECT_EQ(whole[2].text, "id,data\r\n\"c\",3");
  for (size_t piece = 1; piece < input.size(); ++piece) {
    EXPECT_EQ(Texts(Split(SplitMode::kCsv, input, 1, piece)), Texts(whole)) << piece;
  }
}

TEST(RecordSplitter, CsvEmptyLinesAreNotRecords) {
  auto chunks = Split(SplitMode::kCsv, "id\n\na\n\n\nb\n", 1);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].text, "id\n\na\n");
  EXPECT_EQ(chunks[1].text, "id\n\n\nb\n");
}

TEST(RecordSplitter, CsvHeaderOnlyHasNoChunks) {
  EXPECT_TRUE(Split(SplitMode::kCsv, "id,data\n", 1).empty());
  EXPECT_TRUE(Split(SplitMode::kCsv, "id,data", 1).empty());
}

TEST(RecordSplitter, CsvUnterminatedQuoteReachesTheReader) {
  auto chunks = Split(SplitMode::kCsv, "id\n\"a\n", 5);
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0].text, "id\n\"a\n");
}

TEST(RecordSplitter, CutCompleteTakesTheRecordsEndedSoFar) {
  RecordSplitter splitter(SplitMode::kJson, {.max_records = 100, .max_bytes = 1 << 20});
  splitter.Append("{\"a\":");
  EXPECT_FALSE(splitter.CutComplete());
  splitter.Append("1}\n{\"a\":2} {\"a\":3}\n{\"a\":");
  auto first = splitter.CutComplete();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->text, "{\"a\":1}\n{\"a\":2} {\"a\":3}\n");
  EXPECT_EQ(first->records, 3u);
  EXPECT_EQ(first->first_byte, 0u);
  EXPECT_FALSE(splitter.CutComplete());  // the fourth value is not complete
  splitter.Append("4}\n");
  auto second = splitter.CutComplete();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->text, "{\"a\":4}\n");
  EXPECT_EQ(second->records, 1u);
  EXPECT_EQ(second->first_byte, 24u);
  splitter.Finish();
  EXPECT_FALSE(splitter.Next());
}

TEST(RecordSplitter, CutCompleteKeepsAQuotedLineBreakInItsCsvRecord) {
  RecordSplitter splitter(SplitMode::kCsv, {.max_records = 100, .max_bytes = 1 << 20});
  splitter.Append("id,note\n");
  EXPECT_FALSE(splitter.CutComplete());  // a header alone holds no record
  splitter.Append("a,1\nb,\"two\n");
  auto first = splitter.CutComplete();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->text, "id,note\na,1\n");
  EXPECT_EQ(first->records, 1u);
  EXPECT_FALSE(splitter.CutComplete());
  splitter.Append("lines\"\n");
  auto second = splitter.CutComplete();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->text, "id,note\nb,\"two\nlines\"\n");
  EXPECT_EQ(second->records, 1u);
}

TEST(RecordSplitter, CutCompleteGivesAFullChunkFirst) {
  RecordSplitter splitter(SplitMode::kJson, {.max_records = 2, .max_bytes = 1 << 20});
  splitter.Append("1\n2\n3\n");
  auto full = splitter.CutComplete();
  ASSERT_TRUE(full);
  EXPECT_EQ(full->text, "1\n2\n");
  auto rest = splitter.CutComplete();
  ASSERT_TRUE(rest);
  EXPECT_EQ(rest->text, "3\n");
  EXPECT_EQ(rest->records, 1u);
}

TEST(RebaseError, RowNumbersBecomeThoseOfTheWholeInput) {
  Status st = RebaseError(Status::InvalidArgument("row 3, field 'data': bad"),
                          {.first_row = 5000, .rows = 10});
  EXPECT_EQ(st, Status::InvalidArgument("row 5003, field 'data': bad"));
}

TEST(RebaseError, ByteOffsetsToo) {
  Status st = RebaseError(Status::InvalidArgument("row 1: malformed JSON near byte 14: x"),
                          {.first_row = 10, .rows = 5, .first_byte = 1000});
  EXPECT_EQ(st, Status::InvalidArgument("row 11: malformed JSON near byte 1014: x"));
}

TEST(RebaseError, OtherMessagesNameTheChunksRows) {
  Status st = RebaseError(Status::InvalidArgument("malformed JSON: not UTF-8"),
                          {.first_row = 100, .rows = 50});
  EXPECT_EQ(st, Status::InvalidArgument("rows 100 to 149: malformed JSON: not UTF-8"));
}

TEST(RebaseError, TheBrokersRowNumbersToo) {
  Status st = RebaseError(Status::InvalidArgument("produce to stream 'amount': row 2345, field "
                                                  "'id': the partition key is null"),
                          {.first_row = 10000, .rows = 5000});
  EXPECT_EQ(st, Status::InvalidArgument("row 12345, field 'id': the partition key is null "
                                        "(produce to stream 'amount')"));
}

TEST(RebaseError, HeaderErrorsAreLeftAlone) {
  Status st = RebaseError(Status::InvalidArgument("header: duplicate column 'x'"),
                          {.first_row = 100, .rows = 50});
  EXPECT_EQ(st, Status::InvalidArgument("header: duplicate column 'x'"));
}

}  // namespace
}  // namespace higgins::cli
