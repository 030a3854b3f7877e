#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "higgins/arrow/type.h"
#include "higgins/bit_util.h"
#include "higgins/buffer.h"

namespace higgins::arrow {

/// The buffers and counts of one array, laid out as in the Arrow columnar format.
///
/// `buffers` holds exactly DataType::num_buffers() entries: [validity, values] for fixed-width
/// types, [validity, offsets, data] for variable-width types, none for the null type. An empty
/// validity buffer means "all valid" and is allowed only when null_count == 0. `offset` is the
/// logical start in slots (bits for bitmaps and bool values) and is non-zero after slicing; IPC
/// writers rebase it to 0.
struct ArrayData {
  DataType type;
  int64_t length = 0;
  int64_t null_count = 0;
  int64_t offset = 0;
  std::vector<Buffer> buffers;
};

/// An immutable, shared Arrow array. Copying shares the buffers. Accessors do no bounds checks:
/// callers index in [0, length()), and data from outside must pass ValidateFull() first.
class Array {
 public:
  Array() : data_(std::make_shared<const ArrayData>()) {}
  explicit Array(std::shared_ptr<const ArrayData> data) : data_(std::move(data)) {}

  const ArrayData& data() const { return *data_; }
  const std::shared_ptr<const ArrayData>& data_ptr() const { return data_; }
  const DataType& type() const { return data_->type; }
  int64_t length() const { return data_->length; }
  int64_t null_count() const { return data_->null_count; }
  int64_t offset() const { return data_->offset; }

  bool IsValid(int64_t i) const {
    if (data_->type.id() == TypeId::kNull) return false;
    const Buffer& validity = data_->buffers[0];
    return validity.empty() || bit_util::GetBit(validity.data(), data_->offset + i);
  }
  bool IsNull(int64_t i) const { return !IsValid(i); }

  /// Fixed-width primitive value; T must match the type's width (int32_t for date32 and
  /// time32, int64_t for date64/timestamp/time64/duration, uint16_t bits for float16).
  template <typename T>
  T Value(int64_t i) const {
    return bit_util::LoadLE<T>(data_->buffers[1].data() + (data_->offset + i) * sizeof(T));
  }
  bool BoolValue(int64_t i) const {
    return bit_util::GetBit(data_->buffers[1].data(), data_->offset + i);
  }
  /// Decimal128 unscaled value.
  __int128 Decimal128Value(int64_t i) const { return Value<__int128>(i); }
  /// Bytes of slot i for utf8, large_utf8, binary, large_binary and fixed_size_binary.
  std::string_view BinaryValue(int64_t i) const;
  /// Integer value of any integer or temporal type widened to int64 (uint64 wraps).
  int64_t IntegerValue(int64_t i) const;

  /// A zero-copy view of [offset, offset + length) of this array. Caller keeps the range valid.
  Array Slice(int64_t offset, int64_t length) const;

  /// Logical equality: same type, length, validity and values of valid slots (slot contents
  /// behind nulls and buffer padding are ignored; offsets may differ). Floats compare bitwise
  /// so NaN equals the same NaN.
  bool Equals(const Array& other) const;

 private:
  std::shared_ptr<const ArrayData> data_;
};

/// Builds an array of the given type by appending slots. Not thread-safe.
/// Append calls must match the type: AppendPrimitive<T> with the value width (see Array::Value),
/// AppendBool for bool, AppendBinary for var-binary and fixed_size_binary (size must equal the byte
/// width; checked, returns InvalidArgument), AppendDecimal128 for decimals. Range checks of values
/// are the caller's job (the JSON reader does them).
class ArrayBuilder {
 public:
  explicit ArrayBuilder(DataType type);

  const DataType& type() const { return type_; }
  int64_t length() const { return length_; }
  int64_t null_count() const { return null_count_; }

  /// Pre-allocates for `n` more slots (and `data_bytes` more bytes of var-binary data).
  void Reserve(int64_t n, int64_t data_bytes = 0);

  void AppendNull();
  void AppendNulls(int64_t n);
  template <typename T>
  void AppendPrimitive(T value) {
    values_.AppendValue(value);
    AppendValidity(true);
  }
  void AppendBool(bool value);
  void AppendDecimal128(__int128 value) { AppendPrimitive(value); }
  Status AppendBinary(std::string_view bytes) {
    // Inline fast path for the common case: utf8/binary with room left in 32-bit offsets.
    if (layout_ == Layout::kVarBinary &&
        data_.size() + bytes.size() <= static_cast<size_t>(INT32_MAX)) {
      data_.Append(bytes.data(), bytes.size());
      values_.AppendValue(static_cast<int32_t>(data_.size()));
      AppendValidity(true);
      return Status::OK();
    }
    return AppendBinarySlow(bytes);
  }
  /// Appends slot i of `source`, which must have this builder's type.
  Status AppendFrom(const Array& source, int64_t i);

  /// Returns the built array and resets the builder. The validity bitmap is omitted when there
  /// are no nulls.
  Array Finish();

 private:
  void AppendValidity(bool valid) {
    if (validity_.size() * 8 <= static_cast<size_t>(length_)) validity_.AppendValue<uint8_t>(0);
    if (valid) {
      bit_util::SetBit(validity_.data(), length_);
    } else {
      ++null_count_;
    }
    ++length_;
  }
  void AppendEmptyValue();
  Status AppendBinarySlow(std::string_view bytes);

  DataType type_;
  Layout layout_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
  BufferBuilder validity_;
  BufferBuilder values_;   // values, or offsets for var-binary
  BufferBuilder data_;     // var-binary data
};

/// Builds an all-null array of `length` slots for any type.
Array MakeNullArray(const DataType& type, int64_t length);

}  // namespace higgins::arrow
