#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "higgins/status.h"

namespace higgins::kafka {

// The primitive types of the Kafka protocol (the protocol guide, "Protocol Primitive Types"):
// big-endian fixed-width integers; STRING and BYTES with an INT16 or INT32 length (-1 = null
// for the nullable forms); ARRAY with an INT32 count (-1 = null); and the compact forms of
// flexible versions, whose length or count N is written as UNSIGNED_VARINT N + 1 (0 = null),
// followed in every structure by a tagged-field section.

/// Reads primitives from a byte string it does not own (the frame body must outlive the Reader
/// and every view it returns). Failure is sticky: the first malformed or truncated value sets
/// status() to a Corruption naming the type and the byte offset from the start of the input
/// (e.g. "truncated INT32 at byte 17"); that read and every later one return zero, false, an
/// empty view or nullopt, so a decoder may read a whole structure and check ok() once.
class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}

  int8_t Int8();
  int16_t Int16();
  int32_t Int32();
  int64_t Int64();
  uint32_t Uint32();
  /// Any non-zero byte is true (protocol guide, BOOLEAN).
  bool Boolean();

  /// STRING: INT16 length >= 0, then that many bytes (not checked as UTF-8).
  std::string_view String();
  /// NULLABLE_STRING: length -1 is null; other negative lengths are Corruption.
  std::optional<std::string_view> NullableString();
  /// BYTES: INT32 length >= 0, then that many bytes.
  std::string_view Bytes();
  /// NULLABLE_BYTES: length -1 is null.
  std::optional<std::string_view> NullableBytes();

  /// ARRAY count (INT32, never null here). Each element takes at least `min_element_bytes`
  /// (>= 1), so a count that cannot fit in the bytes left is Corruption, and callers may
  /// reserve() the count without letting the input choose an allocation larger than itself.
  /// Returns 0 on failure.
  int32_t ArrayLength(size_t min_element_bytes = 1);
  /// ARRAY count where -1 means null (returned as nullopt). Same bound as ArrayLength.
  std::optional<int32_t> NullableArrayLength(size_t min_element_bytes = 1);

  /// COMPACT_STRING: UNSIGNED_VARINT N + 1, then N bytes; 0 (null) is Corruption.
  std::string_view CompactString();
  std::optional<std::string_view> CompactNullableString();
  std::string_view CompactBytes();
  std::optional<std::string_view> CompactNullableBytes();
  /// COMPACT_ARRAY count (UNSIGNED_VARINT N + 1); null is Corruption. Bounded as ArrayLength.
  int32_t CompactArrayLength(size_t min_element_bytes = 1);
  std::optional<int32_t> CompactNullableArrayLength(size_t min_element_bytes = 1);

  /// Skips a tagged-field section (protocol guide, "Tagged Fields"): an UNSIGNED_VARINT count,
  /// then per field a tag and a size (both UNSIGNED_VARINT) and that many bytes. Higgins knows
  /// none of the optional tags of the versions it speaks, so all are ignored.
  void SkipTaggedFields();

  /// Marks the input as malformed at the current byte with `what` ("negative STRING length",
  /// ...), for checks a decoder makes on decoded values. Keeps the first failure.
  void Fail(std::string_view what);
  /// OK, or Corruption if unread bytes are left (`context` names the message), or the earlier
  /// failure. Call once a message is fully decoded.
  Status Finish(std::string_view context);

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  /// Bytes consumed so far (where the next read starts).
  size_t position() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  /// The unread bytes (a view into the input).
  std::string_view rest() const { return data_.substr(pos_); }

 private:
  // Returns the next `n` bytes and advances, or fails with "truncated <type>".
  std::string_view Take(size_t n, std::string_view type);
  // Reads an UNSIGNED_VARINT of at most 32 bits.
  uint32_t Uvarint32(std::string_view type);
  std::optional<std::string_view> LengthPrefixed(size_t start, int64_t length,
                                                 std::string_view type);
  std::optional<int32_t> CheckedCount(size_t start, int64_t count, size_t min_element_bytes,
                                      std::string_view type);
  void FailAt(size_t pos, std::string_view what);

  std::string_view data_;
  size_t pos_ = 0;
  Status status_;
};

/// Appends primitives to a string it does not own (which must outlive the Writer). Lengths
/// beyond what a type can carry (a STRING over 32767 bytes, BYTES or an array over INT32_MAX)
/// are programmer errors: callers validate names and sizes before encoding.
class Writer {
 public:
  explicit Writer(std::string* out) : out_(out) {}

  void Int8(int8_t v);
  void Int16(int16_t v);
  void Int32(int32_t v);
  void Int64(int64_t v);
  void Uint32(uint32_t v);
  void Boolean(bool v) { Int8(v ? 1 : 0); }

  void String(std::string_view s);
  void NullableString(std::optional<std::string_view> s);
  void Bytes(std::string_view b);
  void NullableBytes(std::optional<std::string_view> b);
  void ArrayLength(size_t n);
  void NullArray() { Int32(-1); }

  void CompactString(std::string_view s);
  void CompactNullableString(std::optional<std::string_view> s);
  void CompactBytes(std::string_view b);
  void CompactNullableBytes(std::optional<std::string_view> b);
  void CompactArrayLength(size_t n);
  void CompactNullArray();
  /// A tagged-field section with no fields (one zero byte).
  void EmptyTaggedFields() { Int8(0); }

  /// Appends a placeholder INT32 and returns its offset in the output, for a size known only
  /// later (the frame's size prefix). Fill it with FillInt32 or FillSizeSince.
  size_t ReserveInt32();
  void FillInt32(size_t offset, int32_t v);
  /// Fills the slot at `offset` with the number of bytes written after it.
  void FillSizeSince(size_t offset);

  /// Bytes in the output (including any written before this Writer existed).
  size_t size() const { return out_->size(); }

 private:
  std::string* out_;
};

}  // namespace higgins::kafka
