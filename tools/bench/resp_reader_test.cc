#include "resp_reader.h"

#include <gtest/gtest.h>

namespace higgins::bench {
namespace {

std::vector<RespReply> ReadAll(RespReader& reader) {
  std::vector<RespReply> out;
  while (true) {
    auto next = reader.Next();
    EXPECT_TRUE(next.ok()) << next.status().ToString();
    if (!next.ok() || !next->has_value()) return out;
    out.push_back(**next);
  }
}

TEST(RespReader, EveryKindOfReply) {
  RespReader reader;
  reader.Consume("+PONG\r\n-ERR wrong\r\n:42\r\n$5\r\n1-0\r\n\r\n$-1\r\n*0\r\n");
  auto replies = ReadAll(reader);
  ASSERT_EQ(replies.size(), 6u);
  EXPECT_EQ(replies[0].kind, '+');
  EXPECT_EQ(replies[0].text, "PONG");
  EXPECT_EQ(replies[1].kind, '-');
  EXPECT_EQ(replies[1].text, "ERR wrong");
  EXPECT_EQ(replies[2].number, 42);
  EXPECT_EQ(replies[3].text, "1-0\r\n");  // bulk strings are binary-safe
  EXPECT_EQ(replies[4].kind, '$');
  EXPECT_EQ(replies[5].number, 0);
}

TEST(RespReader, NestedXrangeReplyFedByteByByte) {
  const std::string xrange =
      "*1\r\n*2\r\n$3\r\n1-1\r\n*4\r\n$2\r\nid\r\n$2\r\nk0\r\n$3\r\nseq\r\n$1\r\n7\r\n";
  RespReader reader;
  for (size_t i = 0; i + 1 < xrange.size(); ++i) {
    reader.Consume(xrange.substr(i, 1));
    auto next = reader.Next();
    ASSERT_TRUE(next.ok());
    EXPECT_FALSE(next->has_value()) << "complete after " << i + 1 << " bytes";
  }
  reader.Consume(xrange.substr(xrange.size() - 1));
  auto replies = ReadAll(reader);
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].kind, '*');
  EXPECT_EQ(replies[0].number, 1);
}

TEST(RespReader, UnknownTypeByteIsCorruptionAndSticky) {
  RespReader reader;
  reader.Consume("?what\r\n+OK\r\n");
  EXPECT_EQ(reader.Next().status().code(), StatusCode::kCorruption);
  EXPECT_EQ(reader.Next().status().code(), StatusCode::kCorruption);
}

TEST(RespReader, BulkWithoutTrailingCrlfIsCorruption) {
  RespReader reader;
  reader.Consume("$2\r\nabXY");
  EXPECT_EQ(reader.Next().status().code(), StatusCode::kCorruption);
}

TEST(RespReader, NegativeLengthIsCorruption) {
  RespReader reader;
  reader.Consume("*-5\r\n");
  EXPECT_EQ(reader.Next().status().code(), StatusCode::kCorruption);
}

}  // namespace
}  // namespace higgins::bench
