// Fuzzes the wire codec with untrusted bytes: FrameDecoder fed the input in chunks of sizes
// derived from the input, checked against the same input fed in one piece (chunking must not
// change the frames or the outcome), then ParseMessage on every frame. A parsed Message must
// serialize to a frame that parses back to the same bytes, and PeekCorrelationId must agree with
// the parser. Anything else (crash, sanitizer report, leak, failed check) is a bug.
#include <google/protobuf/stubs/logging.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "protocol/frame.h"
#include "protocol/messages.h"

namespace protocol = higgins::protocol;

namespace {

constexpr uint32_t kMaxFrameBytes = 1u << 16;

struct Decoded {
  std::vector<std::string> frames;
  higgins::Status consume;
  higgins::Status finish;
};

// Feeds `data` in chunks whose sizes come from a generator seeded by the input, so one input
// always gets the same chunking and different inputs get different ones.
Decoded DecodeInChunks(const uint8_t* data, size_t size, bool one_piece) {
  protocol::FrameDecoder decoder(kMaxFrameBytes);
  Decoded out;
  uint64_t state = size * 0x9e3779b97f4a7c15ull + (size > 0 ? data[size - 1] : 0);
  for (size_t pos = 0; pos < size && out.consume.ok();) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const uint64_t r = state >> 33;
    const size_t want = one_piece ? size : (r % 4 == 0 ? 1 + r % 7 : 1 + r % 2048);
    const size_t n = std::min(want, size - pos);
    out.consume = decoder.Consume(std::span<const uint8_t>(data + pos, n));
    pos += n;
    if (r & 16) {
      while (auto frame = decoder.Next()) out.frames.push_back(std::move(*frame));
    }
  }
  while (auto frame = decoder.Next()) out.frames.push_back(std::move(*frame));
  out.finish = decoder.Finish();
  if (decoder.buffered_bytes() > size) __builtin_trap();
  return out;
}

void CheckMessage(const std::string& body) {
  const auto peeked = protocol::PeekCorrelationId(body);
  auto parsed = protocol::ParseMessage(body);
  if (!parsed.ok()) {
    if (parsed.status().code() != higgins::StatusCode::kInvalidArgument) __builtin_trap();
    return;
  }
  const higgins::wire::Message& message = *parsed;
  const std::optional<uint64_t> expected =
      message.has_correlationid() ? std::optional<uint64_t>(message.correlationid()) : std::nullopt;
  if (peeked != expected) __builtin_trap();
  (void)protocol::HasBody(message);
  (void)protocol::ReplyTypeOf(message.type());
  if (protocol::MessageTypeName(message.type()) == nullptr) __builtin_trap();

  auto frame = protocol::SerializeFrame(message, kMaxFrameBytes * 2);
  if (!frame.ok()) __builtin_trap();
  auto again = protocol::ParseMessage(std::string_view(*frame).substr(protocol::kFrameHeaderBytes));
  if (!again.ok()) __builtin_trap();
  if (again->SerializeAsString() != message.SerializeAsString()) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Invalid UTF-8 in string fields is logged by protobuf; keep the fuzzer's output readable.
  google::protobuf::SetLogHandler(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Decoded chunked = DecodeInChunks(data, size, /*one_piece=*/false);
  const Decoded whole = DecodeInChunks(data, size, /*one_piece=*/true);
  if (chunked.frames != whole.frames || !(chunked.consume == whole.consume) ||
      !(chunked.finish == whole.finish)) {
    __builtin_trap();
  }
  for (const std::string& body : chunked.frames) CheckMessage(body);
  return 0;
}
