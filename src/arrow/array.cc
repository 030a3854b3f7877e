#include "higgins/arrow/array.h"

#include <cstring>

namespace higgins::arrow {

std::string_view Array::BinaryValue(int64_t i) const {
  const ArrayData& d = *data_;
  const int64_t slot = d.offset + i;
  switch (d.type.layout()) {
    case Layout::kVarBinary: {
      const uint8_t* offsets = d.buffers[1].data();
      int32_t begin = bit_util::LoadLE<int32_t>(offsets + slot * 4);
      int32_t end = bit_util::LoadLE<int32_t>(offsets + (slot + 1) * 4);
      return {reinterpret_cast<const char*>(d.buffers[2].data()) + begin,
              static_cast<size_t>(end - begin)};
    }
    case Layout::kLargeVarBinary: {
      const uint8_t* offsets = d.buffers[1].data();
      int64_t begin = bit_util::LoadLE<int64_t>(offsets + slot * 8);
      int64_t end = bit_util::LoadLE<int64_t>(offsets + (slot + 1) * 8);
      return {reinterpret_cast<const char*>(d.buffers[2].data()) + begin,
              static_cast<size_t>(end - begin)};
    }
    default: {
      const int64_t width = d.type.byte_width();
      return {reinterpret_cast<const char*>(d.buffers[1].data()) + slot * width,
              static_cast<size_t>(width)};
    }
  }
}

int64_t Array::IntegerValue(int64_t i) const {
  switch (type().bit_width()) {
    case 8:
      return type().is_unsigned_integer() ? int64_t{Value<uint8_t>(i)} : int64_t{Value<int8_t>(i)};
    case 16:
      return type().is_unsigned_integer() ? int64_t{Value<uint16_t>(i)}
                                          : int64_t{Value<int16_t>(i)};
    case 32:
      return type().is_unsigned_integer() ? int64_t{Value<uint32_t>(i)}
                                          : int64_t{Value<int32_t>(i)};
    default: return Value<int64_t>(i);
  }
}

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): Arrow's Slice(offset, length)
Array Array::Slice(int64_t offset, int64_t length) const {
  auto d = std::make_shared<ArrayData>(*data_);
  d->offset = data_->offset + offset;
  d->length = length;
  if (d->type.id() == TypeId::kNull) {
    d->null_count = length;
  } else if (data_->null_count == 0) {
    d->null_count = 0;
  } else if (!d->buffers.empty() && !d->buffers[0].empty()) {
    d->null_count = length - bit_util::CountSetBits(d->buffers[0].data(), d->offset, length);
  }
  return Array(std::move(d));
}

bool Array::Equals(const Array& other) const {
  if (!(type() == other.type()) || length() != other.length() ||
      null_count() != other.null_count()) {
    return false;
  }
  const DataType& t = type();
  if (t.id() == TypeId::kNull) return true;
  const int64_t n = length();
  for (int64_t i = 0; i < n; ++i) {
    if (IsValid(i) != other.IsValid(i)) return false;
  }
  if (t.id() == TypeId::kBool) {
    for (int64_t i = 0; i < n; ++i) {
      if (IsValid(i) && BoolValue(i) != other.BoolValue(i)) return false;
    }
    return true;
  }
  if (t.layout() != Layout::kFixedWidth || t.id() == TypeId::kFixedSizeBinary) {
    for (int64_t i = 0; i < n; ++i) {
      if (IsValid(i) && BinaryValue(i) != other.BinaryValue(i)) return false;
    }
    return true;
  }
  const size_t width = static_cast<size_t>(t.bit_width() / 8);
  const uint8_t* a = data_->buffers[1].data() + data_->offset * width;
  const uint8_t* b = other.data_->buffers[1].data() + other.data_->offset * width;
  if (null_count() == 0) return n == 0 || std::memcmp(a, b, width * static_cast<size_t>(n)) == 0;
  for (int64_t i = 0; i < n; ++i) {
    if (IsValid(i) && std::memcmp(a + i * width, b + i * width, width) != 0) return false;
  }
  return true;
}

}  // namespace higgins::arrow
