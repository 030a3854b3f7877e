// The four codecs: round trips, frames written by the reference command-line tools (gzip 1.12,
// lz4 1.9.4, zstd 1.5.4), snappy-java's framing, bounds on the output, and garbage.
#include "kafka/compression.h"

#include <gtest/gtest.h>

#include <string>

namespace higgins::kafka {
namespace {

constexpr Compression kCodecs[] = {Compression::kNone, Compression::kGzip, Compression::kSnappy,
                                   Compression::kLz4, Compression::kZstd};

// "hello kafka " 20 times: the payload of the frames below.
std::string Payload() {
  std::string s;
  for (int i = 0; i < 20; ++i) s += "hello kafka ";
  return s;
}

// Bytes that compress a little, without long repeats.
std::string Mixed(size_t n) {
  std::string s;
  s.reserve(n);
  uint32_t x = 12345;
  for (size_t i = 0; i < n; ++i) {
    x = x * 1103515245 + 12345;
    s.push_back(static_cast<char>('a' + ((x >> 16) % 8)));
  }
  return s;
}

std::string Decoded(Compression codec, std::string_view in, size_t max = 1 << 20) {
  auto r = Decompress(codec, in, max);
  EXPECT_TRUE(r.ok()) << CompressionName(codec) << ": " << r.status().ToString();
  return r.ok() ? *r : std::string();
}

TEST(CompressionTest, EveryCodecRoundTripsEmptySmallAndMultiBlockInputs) {
  for (Compression codec : kCodecs) {
    for (const std::string& input : {std::string(), std::string("x"), Payload(), Mixed(300000)}) {
      auto compressed = Compress(codec, input);
      ASSERT_TRUE(compressed.ok()) << compressed.status().ToString();
      EXPECT_EQ(Decoded(codec, *compressed), input)
          << CompressionName(codec) << " " << input.size();
    }
  }
}

TEST(CompressionTest, CompressAppendKeepsWhatIsAlreadyThere) {
  for (Compression codec : kCodecs) {
    std::string out = "head";
    ASSERT_TRUE(CompressAppend(codec, Payload(), out).ok());
    EXPECT_EQ(out.substr(0, 4), "head");
    EXPECT_EQ(Decoded(codec, std::string_view(out).substr(4)), Payload());
  }
}

TEST(CompressionTest, GzipOneMemberFromTheGzipTool) {
  const std::string member(
      "\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03\xcb\x48\xcd\xc9\xc9\x57\xc8\x4e\x4c\xcb\x4e\x54"
      "\xc8\x18\x01\x6c\x00\xc1\x08\x05\x36\xf0\x00\x00\x00",
      35);
  EXPECT_EQ(Decoded(Compression::kGzip, member), Payload());
  EXPECT_EQ(Decoded(Compression::kGzip, member + member), Payload() + Payload());
}

TEST(CompressionTest, SnappyJavaFramingMatchesItsPublishedExample) {
  // snappy-java's SnappyOutputStream writing "foobar\n": header, one block of 9 bytes.
  const std::string framed(
      "\x82SNAPPY\x00\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x09\x07\x18"
      "foobar\n",
      29);
  EXPECT_EQ(Decoded(Compression::kSnappy, framed), "foobar\n");
  EXPECT_EQ(*Compress(Compression::kSnappy, "foobar\n"), framed);
  // The header alone is an empty stream.
  EXPECT_EQ(Decoded(Compression::kSnappy, framed.substr(0, 16)), "");
}

TEST(CompressionTest, SnappyAcceptsARawBlockWithoutTheFraming) {
  EXPECT_EQ(Decoded(Compression::kSnappy, std::string("\x07\x18"
                                                      "foobar\n",
                                                      9)),
            "foobar\n");
}

TEST(CompressionTest, SnappyJavaFramingWithSeveralBlocks) {
  const std::string input = Mixed(100000);  // four blocks of 32 KiB at most
  const std::string framed = *Compress(Compression::kSnappy, input);
  EXPECT_EQ(Decoded(Compression::kSnappy, framed), input);
  // Blocks as another writer may cut them: 1000 bytes each.
  std::string custom = framed.substr(0, 16);
  for (size_t pos = 0; pos < input.size(); pos += 1000) {
    std::string block = *Compress(Compression::kSnappy, input.substr(pos, 1000));
    custom += block.substr(16);
  }
  EXPECT_EQ(Decoded(Compression::kSnappy, custom), input);
}

TEST(CompressionTest, Lz4FramesFromTheLz4Tool) {
  // Default (4 MiB blocks, linked, content checksum); with content size and block checksums;
  // without any checksum.
  const std::string by_default(
      "\x04\x22\x4d\x18\x64\x40\xa7\x16\x00\x00\x00\xcf\x68\x65\x6c\x6c\x6f\x20\x6b\x61\x66\x6b"
      "\x61\x20\x0c\x00\xcc\x50\x61\x66\x6b\x61\x20\x00\x00\x00\x00\x16\xd0\xfa\x39",
      41);
  const std::string sized_checked(
      "\x04\x22\x4d\x18\x7c\x40\xf0\x00\x00\x00\x00\x00\x00\x00\x1c\x16\x00\x00\x00\xcf\x68\x65"
      "\x6c\x6c\x6f\x20\x6b\x61\x66\x6b\x61\x20\x0c\x00\xcc\x50\x61\x66\x6b\x61\x20\x4d\x4e\x23"
      "\xbe\x00\x00\x00\x00\x16\xd0\xfa\x39",
      53);
  const std::string unchecked(
      "\x04\x22\x4d\x18\x60\x40\x82\x16\x00\x00\x00\xcf\x68\x65\x6c\x6c\x6f\x20\x6b\x61\x66\x6b"
      "\x61\x20\x0c\x00\xcc\x50\x61\x66\x6b\x61\x20\x00\x00\x00\x00",
      37);
  EXPECT_EQ(Decoded(Compression::kLz4, by_default), Payload());
  EXPECT_EQ(Decoded(Compression::kLz4, sized_checked), Payload());
  EXPECT_EQ(Decoded(Compression::kLz4, unchecked), Payload());
  EXPECT_EQ(Decoded(Compression::kLz4, by_default + unchecked), Payload() + Payload());

  std::string bad_checksum = by_default;
  bad_checksum[bad_checksum.size() - 1] ^= 1;
  const auto r = Decompress(Compression::kLz4, bad_checksum, 1 << 20);
  EXPECT_EQ(r.status().code(), StatusCode::kCorruption);
}

TEST(CompressionTest, ZstdFramesWithAndWithoutContentSize) {
  // `zstd < in` (streamed: no content size) and `zstd in` (content size 240).
  const std::string streamed(
      "\x28\xb5\x2f\xfd\x04\x58\x9d\x00\x00\x60\x68\x65\x6c\x6c\x6f\x20\x6b\x61\x66\x6b\x61\x20"
      "\x01\x00\xe1\x53\x25\x09\x16\x72\x59\xb1",
      32);
  const std::string sized(
      "\x28\xb5\x2f\xfd\x24\xf0\x9d\x00\x00\x60\x68\x65\x6c\x6c\x6f\x20\x6b\x61\x66\x6b\x61\x20"
      "\x01\x00\xe1\x53\x25\x09\x16\x72\x59\xb1",
      32);
  EXPECT_EQ(Decoded(Compression::kZstd, streamed), Payload());
  EXPECT_EQ(Decoded(Compression::kZstd, sized), Payload());
  EXPECT_EQ(Decoded(Compression::kZstd, streamed + sized), Payload() + Payload());
}

TEST(CompressionTest, OutputPastTheBoundIsResourceExhaustedForEveryCodec) {
  // A bomb: 16 MiB of zeros compress to a few KiB; the bound is 1 MiB.
  const std::string zeros(16 << 20, '\0');
  for (Compression codec : kCodecs) {
    const std::string compressed = *Compress(codec, zeros);
    const auto r = Decompress(codec, compressed, 1 << 20);
    EXPECT_EQ(r.status().code(), StatusCode::kResourceExhausted) << CompressionName(codec);
    // Exactly at the bound is fine.
    const auto at = Decompress(codec, compressed, zeros.size());
    ASSERT_TRUE(at.ok()) << CompressionName(codec) << ": " << at.status().ToString();
    EXPECT_EQ(at->size(), zeros.size());
    EXPECT_EQ(Decompress(codec, compressed, zeros.size() - 1).status().code(),
              StatusCode::kResourceExhausted)
        << CompressionName(codec);
  }
}

TEST(CompressionTest, StreamedZstdBombWithoutContentSizeStopsAtTheBound) {
  std::string streamed(
      "\x28\xb5\x2f\xfd\x04\x58\x9d\x00\x00\x60\x68\x65\x6c\x6c\x6f\x20\x6b\x61\x66\x6b\x61\x20"
      "\x01\x00\xe1\x53\x25\x09\x16\x72\x59\xb1",
      32);
  EXPECT_EQ(Decompress(Compression::kZstd, streamed, 239).status().code(),
            StatusCode::kResourceExhausted);
  EXPECT_EQ(Decompress(Compression::kZstd, streamed, 240)->size(), 240u);
}

TEST(CompressionTest, GarbageIsCorruptionNamingTheCodec) {
  const std::string garbage = "this is not compressed data at all, not even close";
  for (Compression codec :
       {Compression::kGzip, Compression::kSnappy, Compression::kLz4, Compression::kZstd}) {
    const auto r = Decompress(codec, garbage, 1 << 20);
    EXPECT_EQ(r.status().code(), StatusCode::kCorruption) << CompressionName(codec);
    EXPECT_EQ(r.status().message().rfind(std::string(CompressionName(codec)) + ": ", 0), 0u)
        << r.status().message();
  }
}

TEST(CompressionTest, EveryTruncationIsCorruption) {
  for (Compression codec :
       {Compression::kGzip, Compression::kSnappy, Compression::kLz4, Compression::kZstd}) {
    const std::string compressed = *Compress(codec, Mixed(5000));
    for (size_t n = 0; n < compressed.size(); ++n) {
      const auto r = Decompress(codec, std::string_view(compressed).substr(0, n), 1 << 20);
      if (codec == Compression::kSnappy && n == 16) {
        // snappy-java's header without blocks is a valid empty stream: no way to tell.
        EXPECT_EQ(*r, "");
        continue;
      }
      EXPECT_EQ(r.status().code(), StatusCode::kCorruption) << CompressionName(codec) << " " << n;
    }
  }
}

TEST(CompressionTest, SnappyFramingErrors) {
  std::string framed = *Compress(Compression::kSnappy, Payload());
  std::string longer = framed;
  longer[19] = 0x7f;  // the block length now runs past the end
  EXPECT_EQ(Decompress(Compression::kSnappy, longer, 1 << 20).status().message(),
            "snappy: truncated xerial block");
  EXPECT_EQ(Decompress(Compression::kSnappy, framed.substr(0, 12), 1 << 20).status().message(),
            "snappy: truncated xerial header");
  EXPECT_EQ(Decompress(Compression::kSnappy, "", 1 << 20).status().message(),
            "snappy: malformed block length");
}

TEST(CompressionTest, UnknownCodecIsNotSupported) {
  EXPECT_EQ(Decompress(static_cast<Compression>(5), "x", 10).status(),
            Status::NotSupported("unknown compression codec 5"));
  EXPECT_EQ(Compress(static_cast<Compression>(7), "x").status(),
            Status::NotSupported("unknown compression codec 7"));
  EXPECT_EQ(CompressionName(static_cast<Compression>(6)), "unknown");
}

}  // namespace
}  // namespace higgins::kafka
