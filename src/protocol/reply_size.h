#pragma once

#include <google/protobuf/message_lite.h>

#include <cstddef>
#include <cstdint>

namespace higgins::protocol {

/// Bytes of `value` as a protobuf varint (1 to 10).
size_t VarintBytes(uint64_t value);

/// Bytes a length-delimited field (bytes, string or embedded message) takes in its message:
/// the tag of `field`, the varint of `length`, then `length` bytes. An element of a repeated
/// field takes this much each.
size_t FieldBytes(uint32_t field, size_t length);

/// The size of a reply Message as its body grows, against a frame limit, counting everything
/// the frame body holds: the envelope (type, correlation id), the body's tag and length, and
/// the body. Used to decide what goes into a reply before adding it, so that no reply or push
/// passes the frame limit. Not thread-safe (a value used while building one reply).
class ReplySize {
 public:
  /// `message`: the reply as it is so far; `body`: its body (a submessage of `message`, set,
  /// possibly empty). `limit`: the largest frame body allowed.
  ReplySize(const google::protobuf::MessageLite& message, const google::protobuf::MessageLite& body,
            size_t limit);

  /// The serialized size of the Message with `more` more bytes in its body.
  size_t TotalWith(size_t more) const;
  size_t total() const { return TotalWith(0); }
  /// Whether `more` more body bytes (a field's FieldBytes) keep the Message within the limit.
  bool Fits(size_t more) const { return TotalWith(more) <= limit_; }
  /// Body bytes that still fit (0 when none).
  size_t Room() const;
  /// Counts `more` body bytes as added.
  void Add(size_t more) { body_bytes_ += more; }
  size_t limit() const { return limit_; }

 private:
  size_t envelope_bytes_;  // the Message but the body's length and content
  size_t body_bytes_;
  size_t limit_;
};

}  // namespace higgins::protocol
