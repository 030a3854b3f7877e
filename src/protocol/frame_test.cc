#include "protocol/frame.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace higgins::protocol {
namespace {

std::span<const uint8_t> Bytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

std::string Frame(std::string_view body) {
  std::string out;
  EXPECT_TRUE(AppendFrame(body, kDefaultMaxFrameBytes, &out).ok());
  return out;
}

std::string Header(uint32_t length) {
  return {static_cast<char>(length >> 24), static_cast<char>(length >> 16),
          static_cast<char>(length >> 8), static_cast<char>(length)};
}

std::vector<std::string> Drain(FrameDecoder& decoder) {
  std::vector<std::string> bodies;
  while (auto body = decoder.Next()) bodies.push_back(std::move(*body));
  return bodies;
}

// Bodies of varied sizes (0 .. a few KiB) with varied bytes, zero bytes included.
std::vector<std::string> SampleBodies(size_t n) {
  std::vector<std::string> bodies;
  for (size_t i = 0; i < n; ++i) {
    std::string body((i * 37) % 3001, '\0');
    for (size_t j = 0; j < body.size(); ++j) body[j] = static_cast<char>(i + j * 7);
    bodies.push_back(std::move(body));
  }
  return bodies;
}

TEST(AppendFrameTest, WritesBigEndianLengthThenBody) {
  std::string out = "x";
  ASSERT_TRUE(AppendFrame(std::string(258, 'a'), kDefaultMaxFrameBytes, &out).ok());
  ASSERT_EQ(out.size(), 1u + 4u + 258u);
  EXPECT_EQ(out.substr(1, 4), std::string("\x00\x00\x01\x02", 4));
  EXPECT_EQ(out.substr(5), std::string(258, 'a'));
}

TEST(AppendFrameTest, BodyOverTheLimitIsRefusedAndNothingIsWritten) {
  std::string out = "x";
  const Status s = AppendFrame("12345", 4, &out);
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(s.message(), "frame of 5 bytes exceeds the limit of 4 bytes");
  EXPECT_EQ(out, "x");
}

TEST(FrameDecoderTest, ByteAtATimeFeeding) {
  const std::vector<std::string> bodies = SampleBodies(40);
  std::string stream;
  for (const auto& b : bodies) stream += Frame(b);

  FrameDecoder decoder;
  std::vector<std::string> got;
  for (char c : stream) {
    ASSERT_TRUE(decoder.Consume(Bytes(std::string_view(&c, 1))).ok());
    for (auto& b : Drain(decoder)) got.push_back(std::move(b));
  }
  EXPECT_EQ(got, bodies);
  EXPECT_EQ(decoder.buffered_bytes(), 0u);
  EXPECT_TRUE(decoder.Finish().ok());
}

TEST(FrameDecoderTest, ManyFramesInOneChunk) {
  const std::vector<std::string> bodies = SampleBodies(1000);
  std::string stream;
  for (const auto& b : bodies) stream += Frame(b);

  FrameDecoder decoder;
  ASSERT_TRUE(decoder.Consume(Bytes(stream)).ok());
  EXPECT_EQ(decoder.buffered_bytes(), stream.size());
  EXPECT_EQ(Drain(decoder), bodies);
  EXPECT_EQ(decoder.buffered_bytes(), 0u);
  EXPECT_TRUE(decoder.Finish().ok());
}

TEST(FrameDecoderTest, RandomChunkBoundariesGiveTheSameFrames) {
  const std::vector<std::string> bodies = SampleBodies(300);
  std::string stream;
  for (const auto& b : bodies) stream += Frame(b);

  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    FrameDecoder decoder;
    std::vector<std::string> got;
    for (size_t pos = 0; pos < stream.size();) {
      const size_t n = std::min<size_t>(stream.size() - pos, rng() % 9000);
      ASSERT_TRUE(decoder.Consume(Bytes(std::string_view(stream).substr(pos, n))).ok());
      pos += n;
      if (rng() % 2) {
        for (auto& b : Drain(decoder)) got.push_back(std::move(b));
      }
    }
    for (auto& b : Drain(decoder)) got.push_back(std::move(b));
    EXPECT_EQ(got, bodies);
    EXPECT_TRUE(decoder.Finish().ok());
  }
}

TEST(FrameDecoderTest, LargeFrameInSmallChunks) {
  const std::string body(3 << 20, 'z');
  const std::string stream = Frame(body) + Frame("after");
  FrameDecoder decoder;
  for (size_t pos = 0; pos < stream.size(); pos += 4096) {
    ASSERT_TRUE(decoder.Consume(Bytes(std::string_view(stream).substr(pos, 4096))).ok());
  }
  EXPECT_EQ(Drain(decoder), (std::vector<std::string>{body, "after"}));
  EXPECT_EQ(decoder.buffered_bytes(), 0u);
}

TEST(FrameDecoderTest, FrameExactlyAtTheLimit) {
  FrameDecoder decoder(16);
  ASSERT_TRUE(decoder.Consume(Bytes(Header(16) + std::string(16, 'q'))).ok());
  EXPECT_EQ(decoder.Next(), std::string(16, 'q'));
  EXPECT_TRUE(decoder.Finish().ok());
}

TEST(FrameDecoderTest, OneByteOverTheLimitIsStickyAndCheckedBeforeTheBody) {
  FrameDecoder decoder(16);
  // A good frame, then a header one byte over the limit with no body yet.
  const Status s = decoder.Consume(Bytes(Frame("ok") + Header(17)));
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(s.message(), "frame of 17 bytes exceeds the limit of 16 bytes");
  // The frame completed before the bad header is still delivered, once.
  EXPECT_EQ(decoder.Next(), "ok");
  EXPECT_EQ(decoder.Next(), std::nullopt);
  // Every later call reports the same error, and no later frame is accepted.
  EXPECT_EQ(decoder.Consume(Bytes(std::string(17, 'x') + Frame("late"))), s);
  EXPECT_EQ(decoder.Next(), std::nullopt);
  EXPECT_EQ(decoder.Finish(), s);
}

TEST(FrameDecoderTest, OversizeHeaderSplitAcrossChunks) {
  FrameDecoder decoder(1000);
  const std::string header = Header(0x80000000u);
  ASSERT_TRUE(decoder.Consume(Bytes(header.substr(0, 3))).ok());
  EXPECT_EQ(decoder.Consume(Bytes(header.substr(3))).code(), StatusCode::kResourceExhausted);
}

TEST(FrameDecoderTest, LargestLengthIsAcceptedWhenTheLimitAllowsIt) {
  FrameDecoder decoder(0xffffffffu);
  ASSERT_TRUE(decoder.Consume(Bytes(Header(0xffffffffu) + "abc")).ok());
  EXPECT_EQ(decoder.Next(), std::nullopt);
  EXPECT_EQ(decoder.Finish().message(), "truncated frame: expected 4294967295 body bytes, got 3");
}

TEST(FrameDecoderTest, TruncatedHeaderOnFinish) {
  FrameDecoder decoder;
  ASSERT_TRUE(decoder.Consume(Bytes(Frame("whole") + std::string("\x00\x00", 2))).ok());
  EXPECT_EQ(decoder.Next(), "whole");
  const Status s = decoder.Finish();
  EXPECT_EQ(s.code(), StatusCode::kCorruption);
  EXPECT_EQ(s.message(), "truncated frame: expected 4 header bytes, got 2");
  EXPECT_EQ(decoder.buffered_bytes(), 2u);
}

TEST(FrameDecoderTest, TruncatedBodyOnFinish) {
  FrameDecoder decoder;
  ASSERT_TRUE(decoder.Consume(Bytes(Header(10) + "abc")).ok());
  EXPECT_EQ(decoder.Next(), std::nullopt);
  const Status s = decoder.Finish();
  EXPECT_EQ(s.code(), StatusCode::kCorruption);
  EXPECT_EQ(s.message(), "truncated frame: expected 10 body bytes, got 3");
  EXPECT_EQ(decoder.buffered_bytes(), 7u);
}

TEST(FrameDecoderTest, FinishAtAFrameBoundaryIsOkEvenWithFramesNotYetTaken) {
  FrameDecoder decoder;
  EXPECT_TRUE(decoder.Finish().ok());
  ASSERT_TRUE(decoder.Consume(Bytes(Frame("a") + Frame("b"))).ok());
  EXPECT_TRUE(decoder.Finish().ok());
  EXPECT_EQ(decoder.buffered_bytes(), 10u);
  EXPECT_EQ(Drain(decoder), (std::vector<std::string>{"a", "b"}));
}

TEST(FrameDecoderTest, ZeroLengthFrame) {
  FrameDecoder decoder;
  ASSERT_TRUE(decoder.Consume(Bytes(Header(0) + Header(0) + Frame("x"))).ok());
  EXPECT_EQ(Drain(decoder), (std::vector<std::string>{"", "", "x"}));
  EXPECT_TRUE(decoder.Finish().ok());
}

TEST(FrameDecoderTest, ZeroLimitAcceptsOnlyEmptyFrames) {
  FrameDecoder decoder(0);
  ASSERT_TRUE(decoder.Consume(Bytes(Header(0))).ok());
  EXPECT_EQ(decoder.Next(), "");
  EXPECT_EQ(decoder.Consume(Bytes(Header(1))).code(), StatusCode::kResourceExhausted);
}

TEST(FrameDecoderTest, EmptyConsumeChangesNothing) {
  FrameDecoder decoder;
  ASSERT_TRUE(decoder.Consume({}).ok());
  ASSERT_TRUE(decoder.Consume(Bytes(Header(3).substr(0, 1))).ok());
  ASSERT_TRUE(decoder.Consume({}).ok());
  EXPECT_EQ(decoder.buffered_bytes(), 1u);
  ASSERT_TRUE(decoder.Consume(Bytes(Header(3).substr(1) + "xyz")).ok());
  EXPECT_EQ(decoder.Next(), "xyz");
}

}  // namespace
}  // namespace higgins::protocol
