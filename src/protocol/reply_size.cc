#include "protocol/reply_size.h"

namespace higgins::protocol {

size_t VarintBytes(uint64_t value) {
  size_t bytes = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++bytes;
  }
  return bytes;
}

size_t FieldBytes(uint32_t field, size_t length) {
  constexpr uint32_t kLengthDelimited = 2;  // the wire type of bytes, strings and messages
  return VarintBytes((static_cast<uint64_t>(field) << 3) | kLengthDelimited) + VarintBytes(length) +
         length;
}

ReplySize::ReplySize(const google::protobuf::MessageLite& message,
                     const google::protobuf::MessageLite& body, size_t limit)
    : body_bytes_(body.ByteSizeLong()), limit_(limit) {
  envelope_bytes_ = message.ByteSizeLong() - VarintBytes(body_bytes_) - body_bytes_;
}

size_t ReplySize::TotalWith(size_t more) const {
  const size_t body = body_bytes_ + more;
  return envelope_bytes_ + VarintBytes(body) + body;
}

size_t ReplySize::Room() const {
  if (total() >= limit_) return 0;
  // The body's length may take more varint bytes once it grows: leave room for the longest.
  const size_t room = limit_ - total();
  const size_t growth = VarintBytes(limit_) - VarintBytes(body_bytes_);
  return room > growth ? room - growth : 0;
}

}  // namespace higgins::protocol
