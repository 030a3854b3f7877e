#include "higgins/arrow/array.h"

#include <string>

namespace higgins::arrow {

ArrayBuilder::ArrayBuilder(DataType type) : type_(std::move(type)), layout_(type_.layout()) {
  if (type_.layout() == Layout::kVarBinary) values_.AppendValue<int32_t>(0);
  if (type_.layout() == Layout::kLargeVarBinary) values_.AppendValue<int64_t>(0);
}

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): (rows, bytes) of the public API
void ArrayBuilder::Reserve(int64_t n, int64_t data_bytes) {
  validity_.Reserve(static_cast<size_t>(bit_util::BytesForBits(length_ + n)) - validity_.size());
  switch (type_.layout()) {
    case Layout::kVarBinary: values_.Reserve(static_cast<size_t>(n) * 4); break;
    case Layout::kLargeVarBinary: values_.Reserve(static_cast<size_t>(n) * 8); break;
    case Layout::kFixedWidth:
      if (type_.id() != TypeId::kBool) {
        values_.Reserve(static_cast<size_t>(n * type_.bit_width() / 8));
      }
      break;
    case Layout::kNull: break;
  }
  if (data_bytes > 0) data_.Reserve(static_cast<size_t>(data_bytes));
}

void ArrayBuilder::AppendEmptyValue() {
  switch (type_.layout()) {
    case Layout::kNull: break;
    case Layout::kVarBinary: values_.AppendValue(static_cast<int32_t>(data_.size())); break;
    case Layout::kLargeVarBinary: values_.AppendValue(static_cast<int64_t>(data_.size())); break;
    case Layout::kFixedWidth:
      if (type_.id() == TypeId::kBool) {
        if (values_.size() * 8 <= static_cast<size_t>(length_)) values_.AppendValue<uint8_t>(0);
      } else {
        values_.AppendZeros(static_cast<size_t>(type_.bit_width() / 8));
      }
      break;
  }
}

void ArrayBuilder::AppendNull() {
  AppendEmptyValue();
  AppendValidity(false);
}

void ArrayBuilder::AppendNulls(int64_t n) {
  for (int64_t i = 0; i < n; ++i) AppendNull();
}

void ArrayBuilder::AppendBool(bool value) {
  if (values_.size() * 8 <= static_cast<size_t>(length_)) values_.AppendValue<uint8_t>(0);
  if (value) bit_util::SetBit(values_.data(), length_);
  AppendValidity(true);
}

Status ArrayBuilder::AppendBinarySlow(std::string_view bytes) {
  switch (type_.layout()) {
    case Layout::kVarBinary:
      if (data_.size() + bytes.size() > static_cast<size_t>(INT32_MAX)) {
        return Status::ResourceExhausted(type_.ToString() +
                                         " array data exceeds 2 GiB; use a large_ type");
      }
      data_.Append(bytes.data(), bytes.size());
      values_.AppendValue(static_cast<int32_t>(data_.size()));
      break;
    case Layout::kLargeVarBinary:
      data_.Append(bytes.data(), bytes.size());
      values_.AppendValue(static_cast<int64_t>(data_.size()));
      break;
    default:
      if (type_.id() != TypeId::kFixedSizeBinary) {
        return Status::InvalidArgument("cannot append bytes to a " + type_.ToString() + " array");
      }
      if (bytes.size() != static_cast<size_t>(type_.byte_width())) {
        return Status::InvalidArgument("expected " + std::to_string(type_.byte_width()) +
                                       " bytes for " + type_.ToString() + ", got " +
                                       std::to_string(bytes.size()));
      }
      values_.Append(bytes.data(), bytes.size());
      break;
  }
  AppendValidity(true);
  return Status::OK();
}

Status ArrayBuilder::AppendFrom(const Array& source, int64_t i) {
  if (!(source.type() == type_)) {
    return Status::InvalidArgument("cannot append a " + source.type().ToString() + " value to a " +
                                   type_.ToString() + " array");
  }
  if (source.IsNull(i)) {
    AppendNull();
    return Status::OK();
  }
  if (type_.id() == TypeId::kBool) {
    AppendBool(source.BoolValue(i));
  } else if (type_.layout() == Layout::kFixedWidth && type_.id() != TypeId::kFixedSizeBinary) {
    const size_t width = static_cast<size_t>(type_.bit_width() / 8);
    const ArrayData& d = source.data();
    values_.Append(d.buffers[1].data() + (d.offset + i) * static_cast<int64_t>(width), width);
    AppendValidity(true);
  } else {
    return AppendBinary(source.BinaryValue(i));
  }
  return Status::OK();
}

Array ArrayBuilder::Finish() {
  auto d = std::make_shared<ArrayData>();
  d->type = type_;
  d->length = length_;
  d->null_count = type_.id() == TypeId::kNull ? length_ : null_count_;
  switch (type_.layout()) {
    case Layout::kNull: break;
    case Layout::kFixedWidth:
      d->buffers.push_back(null_count_ == 0 ? Buffer() : validity_.Finish());
      d->buffers.push_back(values_.Finish());
      break;
    default:
      d->buffers.push_back(null_count_ == 0 ? Buffer() : validity_.Finish());
      d->buffers.push_back(values_.Finish());
      d->buffers.push_back(data_.Finish());
      break;
  }
  *this = ArrayBuilder(type_);
  return Array(std::move(d));
}

Array MakeNullArray(const DataType& type, int64_t length) {
  if (type.id() == TypeId::kNull) {
    auto d = std::make_shared<ArrayData>();
    d->type = type;
    d->length = length;
    d->null_count = length;
    return Array(std::move(d));
  }
  ArrayBuilder b(type);
  b.Reserve(length);
  b.AppendNulls(length);
  return b.Finish();
}

}  // namespace higgins::arrow
