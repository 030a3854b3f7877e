// Frames, LogWriter and LogReader: the framing shared by segment and index files.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>

#include <string>
#include <vector>

#include "common/file_util.h"
#include "storage/log_frame.h"
#include "storage/log_reader.h"
#include "storage/log_writer.h"
#include "storage/storage_test_util.h"

namespace higgins::storage {
namespace {

using testing::FileSizeOf;
using testing::ReadFileBytes;
using testing::TempDir;
using testing::WriteFileBytes;

std::vector<uint8_t> Bytes(const std::string& text) {
  return {text.begin(), text.end()};
}

std::vector<uint8_t> Frame(FrameType type, const std::vector<uint8_t>& payload) {
  BufferBuilder out;
  AppendFrame(type, payload, out);
  return std::vector<uint8_t>(out.data(), out.data() + out.size());
}

TEST(FrameTest, RoundTrip) {
  for (const std::string& text : {std::string(), std::string("x"), std::string(100000, 'y')}) {
    const std::vector<uint8_t> frame = Frame(FrameType::kBatch, Bytes(text));
    const DecodedFrame decoded = DecodeFrame(frame);
    ASSERT_EQ(decoded.error, FrameError::kNone);
    EXPECT_EQ(decoded.type, static_cast<uint8_t>(FrameType::kBatch));
    EXPECT_EQ(decoded.size, kFrameHeaderSize + text.size());
    EXPECT_EQ(std::string(decoded.payload.begin(), decoded.payload.end()), text);
  }
}

TEST(FrameTest, PiecesChecksumLikeTheirConcatenation) {
  const std::vector<uint8_t> a = Bytes("hello "), b = Bytes("world");
  uint8_t header[kFrameHeaderSize];
  EncodeFrameHeader(FrameType::kSchema, {a, b}, header);
  std::vector<uint8_t> frame(header, header + kFrameHeaderSize);
  frame.insert(frame.end(), a.begin(), a.end());
  frame.insert(frame.end(), b.begin(), b.end());
  EXPECT_EQ(frame, Frame(FrameType::kSchema, Bytes("hello world")));
}

TEST(FrameTest, EveryProperPrefixIsTruncated) {
  const std::vector<uint8_t> frame = Frame(FrameType::kBatch, Bytes("some payload"));
  for (size_t n = 0; n < frame.size(); ++n) {
    EXPECT_EQ(DecodeFrame({frame.data(), n}).error, FrameError::kTruncated) << n;
  }
}

TEST(FrameTest, ChecksumMismatch) {
  const std::vector<uint8_t> frame = Frame(FrameType::kBatch, Bytes("some payload"));
  for (size_t i = kFrameChecksumOffset; i < frame.size(); ++i) {
    std::vector<uint8_t> damaged = frame;
    damaged[i] ^= 0x20;
    EXPECT_EQ(DecodeFrame(damaged).error, FrameError::kBadChecksum) << i;
  }
}

TEST(FrameTest, BadLength) {
  std::vector<uint8_t> frame = Frame(FrameType::kBatch, Bytes("abc"));
  for (size_t i = 0; i < 4; ++i) frame[kFrameLengthOffset + i] = 0xFF;
  EXPECT_EQ(DecodeFrame(frame).error, FrameError::kBadLength);
}

TEST(FrameTest, ZeroFilledBytesAreNotAFrame) {
  const std::vector<uint8_t> zeros(64, 0);
  EXPECT_EQ(DecodeFrame(zeros).error, FrameError::kBadChecksum);
}

class LogFileTest : public ::testing::Test {
 protected:
  TempDir dir_;
  std::string path_ = dir_.path() + "/log";

  // Writes `payloads` as frames with a LogWriter; returns the end of each frame.
  std::vector<uint64_t> WriteFrames(const std::vector<std::vector<uint8_t>>& payloads) {
    auto file = OpenFile(path_, O_RDWR | O_CREAT);
    EXPECT_TRUE(file.ok());
    LogWriter writer(file->fd(), path_, 0);
    std::vector<uint64_t> ends;
    for (const auto& payload : payloads) {
      EXPECT_TRUE(writer.AppendFrame(FrameType::kIndexRecord, {payload}).ok());
      ends.push_back(writer.end());
    }
    return ends;
  }

  // Reads every valid frame; `error` gets why reading stopped, `valid_end` where.
  std::vector<std::string> ReadFrames(FrameError* error, uint64_t* valid_end) {
    auto file = OpenFile(path_, O_RDONLY);
    EXPECT_TRUE(file.ok());
    LogReader reader(file->fd(), path_, 0, FileSizeOf(path_));
    std::vector<std::string> out;
    while (true) {
      auto frame = reader.Next();
      EXPECT_TRUE(frame.ok()) << frame.status().ToString();
      if (!frame.ok() || !frame->has_value()) break;
      out.emplace_back((*frame)->payload.begin(), (*frame)->payload.end());
    }
    *error = reader.error();
    *valid_end = reader.valid_end();
    return out;
  }
};

TEST_F(LogFileTest, ReadsBackWhatWasWritten) {
  const std::vector<uint64_t> ends = WriteFrames({Bytes("a"), Bytes(""), Bytes("ccc")});
  FrameError error;
  uint64_t valid_end;
  EXPECT_EQ(ReadFrames(&error, &valid_end), (std::vector<std::string>{"a", "", "ccc"}));
  EXPECT_EQ(error, FrameError::kNone);
  EXPECT_EQ(valid_end, ends.back());
}

TEST_F(LogFileTest, FramesLargerThanTheReadChunk) {
  const std::string big(kReadChunkBytes * 3 + 17, 'b');
  WriteFrames({Bytes("small"), Bytes(big), Bytes("tail")});
  FrameError error;
  uint64_t valid_end;
  EXPECT_EQ(ReadFrames(&error, &valid_end), (std::vector<std::string>{"small", big, "tail"}));
  EXPECT_EQ(error, FrameError::kNone);
}

TEST_F(LogFileTest, ChecksumMismatchStopsReading) {
  const std::vector<uint64_t> ends = WriteFrames({Bytes("one"), Bytes("two"), Bytes("three")});
  std::vector<uint8_t> bytes = ReadFileBytes(path_);
  bytes[ends[0] + kFrameHeaderSize] ^= 1;
  WriteFileBytes(path_, bytes);
  FrameError error;
  uint64_t valid_end;
  EXPECT_EQ(ReadFrames(&error, &valid_end), (std::vector<std::string>{"one"}));
  EXPECT_EQ(error, FrameError::kBadChecksum);
  EXPECT_EQ(valid_end, ends[0]);
}

TEST_F(LogFileTest, TruncatedTrailingFrameStopsReading) {
  const std::vector<uint64_t> ends = WriteFrames({Bytes("one"), Bytes("two")});
  for (uint64_t size = ends[0] + 1; size < ends[1]; ++size) {
    testing::TruncateFile(path_, size);
    FrameError error;
    uint64_t valid_end;
    EXPECT_EQ(ReadFrames(&error, &valid_end), (std::vector<std::string>{"one"})) << size;
    EXPECT_EQ(error, FrameError::kTruncated);
    EXPECT_EQ(valid_end, ends[0]);
  }
}

// A write past RLIMIT_FSIZE fails (EFBIG) or is short: the writer cuts it back and goes on.
TEST_F(LogFileTest, FailedWriteIsCutBack) {
  auto file = OpenFile(path_, O_RDWR | O_CREAT);
  ASSERT_TRUE(file.ok());
  LogWriter writer(file->fd(), path_, 0);
  ASSERT_TRUE(writer.AppendFrame(FrameType::kIndexRecord, {Bytes("first")}).ok());
  const uint64_t end = writer.end();

  struct sigaction ignore = {}, previous = {};
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(::sigaction(SIGXFSZ, &ignore, &previous), 0);
  rlimit old_limit;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  rlimit limit = old_limit;
  limit.rlim_cur = end + 10;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limit), 0);
  const Status failed = writer.AppendFrame(FrameType::kIndexRecord, {Bytes(std::string(100, 'z'))});
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &old_limit), 0);
  ASSERT_EQ(::sigaction(SIGXFSZ, &previous, nullptr), 0);

  EXPECT_EQ(failed.code(), StatusCode::kIOError) << failed.ToString();
  EXPECT_EQ(writer.end(), end);
  EXPECT_EQ(FileSizeOf(path_), end);
  ASSERT_TRUE(writer.AppendFrame(FrameType::kIndexRecord, {Bytes("second")}).ok());
  FrameError error;
  uint64_t valid_end;
  EXPECT_EQ(ReadFrames(&error, &valid_end), (std::vector<std::string>{"first", "second"}));
  EXPECT_EQ(error, FrameError::kNone);
}

}  // namespace
}  // namespace higgins::storage
