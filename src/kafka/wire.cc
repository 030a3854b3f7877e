#include "kafka/wire.h"

#include <cassert>
#include <limits>

#include "kafka/varint.h"

namespace higgins::kafka {
namespace {

template <typename T>
T LoadBigEndian(std::string_view bytes) {
  using U = std::make_unsigned_t<T>;
  U v = 0;
  for (char c : bytes) v = static_cast<U>((v << 8) | static_cast<uint8_t>(c));
  return static_cast<T>(v);
}

template <typename T>
void StoreBigEndian(std::string* out, T value) {
  using U = std::make_unsigned_t<T>;
  const auto v = static_cast<U>(value);
  for (int shift = (sizeof(T) - 1) * 8; shift >= 0; shift -= 8) {
    out->push_back(static_cast<char>((v >> shift) & 0xff));
  }
}

}  // namespace

void Reader::FailAt(size_t pos, std::string_view what) {
  if (!status_.ok()) return;
  status_ = Status::Corruption(std::string(what) + " at byte " + std::to_string(pos));
  pos_ = data_.size();
}

void Reader::Fail(std::string_view what) {
  FailAt(pos_, what);
}

Status Reader::Finish(std::string_view context) {
  if (!status_.ok()) return status_.WithContext(context);
  if (remaining() != 0) {
    return Status::Corruption(std::string(context) + ": " + std::to_string(remaining()) +
                              " unread bytes at byte " + std::to_string(pos_));
  }
  return Status::OK();
}

std::string_view Reader::Take(size_t n, std::string_view type) {
  if (!ok()) return {};
  if (n > remaining()) {
    FailAt(pos_, "truncated " + std::string(type));
    return {};
  }
  std::string_view out = data_.substr(pos_, n);
  pos_ += n;
  return out;
}

int8_t Reader::Int8() {
  return LoadBigEndian<int8_t>(Take(1, "INT8"));
}
int16_t Reader::Int16() {
  return LoadBigEndian<int16_t>(Take(2, "INT16"));
}
int32_t Reader::Int32() {
  return LoadBigEndian<int32_t>(Take(4, "INT32"));
}
int64_t Reader::Int64() {
  return LoadBigEndian<int64_t>(Take(8, "INT64"));
}
uint32_t Reader::Uint32() {
  return LoadBigEndian<uint32_t>(Take(4, "UINT32"));
}
bool Reader::Boolean() {
  return LoadBigEndian<int8_t>(Take(1, "BOOLEAN")) != 0;
}

uint32_t Reader::Uvarint32(std::string_view type) {
  if (!ok()) return 0;
  uint64_t value = 0;
  const size_t n = GetUvarint(rest(), &value, 5);
  if (n == 0 || value > std::numeric_limits<uint32_t>::max()) {
    FailAt(pos_, (n == 0 && remaining() < 5 ? "truncated " : "malformed ") + std::string(type));
    return 0;
  }
  pos_ += n;
  return static_cast<uint32_t>(value);
}

// `length` was read from the prefix at `start`; -1 is null, other negatives are malformed.
std::optional<std::string_view> Reader::LengthPrefixed(size_t start, int64_t length,
                                                       std::string_view type) {
  if (!ok()) return std::nullopt;
  if (length == -1) return std::nullopt;
  if (length < 0) {
    FailAt(start, "negative " + std::string(type) + " length " + std::to_string(length));
    return std::nullopt;
  }
  if (static_cast<uint64_t>(length) > remaining()) {
    FailAt(start, std::string(type) + " length " + std::to_string(length) + " exceeds the " +
                      std::to_string(remaining()) + " bytes left");
    return std::nullopt;
  }
  return Take(static_cast<size_t>(length), type);
}

std::optional<std::string_view> Reader::NullableString() {
  const size_t start = pos_;
  const int16_t length = LoadBigEndian<int16_t>(Take(2, "STRING length"));
  return LengthPrefixed(start, length, "STRING");
}

std::string_view Reader::String() {
  const size_t start = pos_;
  auto s = NullableString();
  if (!s && ok()) FailAt(start, "null STRING");
  return s.value_or(std::string_view());
}

std::optional<std::string_view> Reader::NullableBytes() {
  const size_t start = pos_;
  const int32_t length = LoadBigEndian<int32_t>(Take(4, "BYTES length"));
  return LengthPrefixed(start, length, "BYTES");
}

std::string_view Reader::Bytes() {
  const size_t start = pos_;
  auto b = NullableBytes();
  if (!b && ok()) FailAt(start, "null BYTES");
  return b.value_or(std::string_view());
}

std::optional<std::string_view> Reader::CompactNullableString() {
  const size_t start = pos_;
  return LengthPrefixed(start, static_cast<int64_t>(Uvarint32("COMPACT_STRING length")) - 1,
                        "COMPACT_STRING");
}

std::string_view Reader::CompactString() {
  const size_t start = pos_;
  auto s = CompactNullableString();
  if (!s && ok()) FailAt(start, "null COMPACT_STRING");
  return s.value_or(std::string_view());
}

std::optional<std::string_view> Reader::CompactNullableBytes() {
  const size_t start = pos_;
  return LengthPrefixed(start, static_cast<int64_t>(Uvarint32("COMPACT_BYTES length")) - 1,
                        "COMPACT_BYTES");
}

std::string_view Reader::CompactBytes() {
  const size_t start = pos_;
  auto b = CompactNullableBytes();
  if (!b && ok()) FailAt(start, "null COMPACT_BYTES");
  return b.value_or(std::string_view());
}

std::optional<int32_t> Reader::CheckedCount(size_t start, int64_t count, size_t min_element_bytes,
                                            std::string_view type) {
  if (!ok() || count == -1) return std::nullopt;
  if (count < 0) {
    FailAt(start, "negative " + std::string(type) + " length " + std::to_string(count));
    return std::nullopt;
  }
  if (min_element_bytes == 0) min_element_bytes = 1;
  if (static_cast<uint64_t>(count) > remaining() / min_element_bytes ||
      count > std::numeric_limits<int32_t>::max()) {
    FailAt(start, std::string(type) + " of " + std::to_string(count) + " elements exceeds the " +
                      std::to_string(remaining()) + " bytes left");
    return std::nullopt;
  }
  return static_cast<int32_t>(count);
}

std::optional<int32_t> Reader::NullableArrayLength(size_t min_element_bytes) {
  const size_t start = pos_;
  const int32_t count = LoadBigEndian<int32_t>(Take(4, "ARRAY length"));
  return CheckedCount(start, count, min_element_bytes, "ARRAY");
}

int32_t Reader::ArrayLength(size_t min_element_bytes) {
  const size_t start = pos_;
  auto n = NullableArrayLength(min_element_bytes);
  if (!n && ok()) FailAt(start, "null ARRAY");
  return n.value_or(0);
}

std::optional<int32_t> Reader::CompactNullableArrayLength(size_t min_element_bytes) {
  const size_t start = pos_;
  const int64_t count = static_cast<int64_t>(Uvarint32("COMPACT_ARRAY length")) - 1;
  return CheckedCount(start, count, min_element_bytes, "COMPACT_ARRAY");
}

int32_t Reader::CompactArrayLength(size_t min_element_bytes) {
  const size_t start = pos_;
  auto n = CompactNullableArrayLength(min_element_bytes);
  if (!n && ok()) FailAt(start, "null COMPACT_ARRAY");
  return n.value_or(0);
}

void Reader::SkipTaggedFields() {
  // Each field takes at least two bytes (tag and size), which bounds the count.
  const uint32_t count = Uvarint32("tagged field count");
  if (ok() && count > remaining() / 2) {
    Fail(std::to_string(count) + " tagged fields exceed the " + std::to_string(remaining()) +
         " bytes left");
  }
  for (uint32_t i = 0; i < count && ok(); ++i) {
    Uvarint32("tag");
    const uint32_t size = Uvarint32("tagged field size");
    Take(size, "tagged field");
  }
}

void Writer::Int8(int8_t v) {
  StoreBigEndian(out_, v);
}
void Writer::Int16(int16_t v) {
  StoreBigEndian(out_, v);
}
void Writer::Int32(int32_t v) {
  StoreBigEndian(out_, v);
}
void Writer::Int64(int64_t v) {
  StoreBigEndian(out_, v);
}
void Writer::Uint32(uint32_t v) {
  StoreBigEndian(out_, v);
}

void Writer::String(std::string_view s) {
  assert(s.size() <= static_cast<size_t>(std::numeric_limits<int16_t>::max()));
  Int16(static_cast<int16_t>(s.size()));
  out_->append(s);
}

void Writer::NullableString(std::optional<std::string_view> s) {
  if (s) {
    String(*s);
  } else {
    Int16(-1);
  }
}

void Writer::Bytes(std::string_view b) {
  assert(b.size() <= static_cast<size_t>(std::numeric_limits<int32_t>::max()));
  Int32(static_cast<int32_t>(b.size()));
  out_->append(b);
}

void Writer::NullableBytes(std::optional<std::string_view> b) {
  if (b) {
    Bytes(*b);
  } else {
    Int32(-1);
  }
}

void Writer::ArrayLength(size_t n) {
  assert(n <= static_cast<size_t>(std::numeric_limits<int32_t>::max()));
  Int32(static_cast<int32_t>(n));
}

void Writer::CompactString(std::string_view s) {
  PutUvarint(*out_, s.size() + 1);
  out_->append(s);
}

void Writer::CompactNullableString(std::optional<std::string_view> s) {
  if (s) {
    CompactString(*s);
  } else {
    PutUvarint(*out_, 0);
  }
}

void Writer::CompactBytes(std::string_view b) {
  CompactString(b);
}

void Writer::CompactNullableBytes(std::optional<std::string_view> b) {
  CompactNullableString(b);
}

void Writer::CompactArrayLength(size_t n) {
  assert(n < static_cast<size_t>(std::numeric_limits<int32_t>::max()));
  PutUvarint(*out_, n + 1);
}

void Writer::CompactNullArray() {
  PutUvarint(*out_, 0);
}

size_t Writer::ReserveInt32() {
  const size_t offset = out_->size();
  Int32(0);
  return offset;
}

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): (where, what), as every Fill
void Writer::FillInt32(size_t offset, int32_t v) {
  assert(offset + 4 <= out_->size());
  const auto u = static_cast<uint32_t>(v);
  for (int i = 0; i < 4; ++i) (*out_)[offset + i] = static_cast<char>((u >> (24 - 8 * i)) & 0xff);
}

void Writer::FillSizeSince(size_t offset) {
  const size_t size = out_->size() - offset - 4;
  assert(size <= static_cast<size_t>(std::numeric_limits<int32_t>::max()));
  FillInt32(offset, static_cast<int32_t>(size));
}

}  // namespace higgins::kafka
