#include "arrow/validate.h"

#include <string>

#include "arrow/utf8.h"

namespace higgins::arrow {
namespace {

Status Corrupt(const std::string& what) { return Status::Corruption(what); }

Status CheckBufferSize(const Buffer& buffer, int64_t needed, const char* name) {
  if (static_cast<int64_t>(buffer.size()) < needed) {
    return Corrupt(std::string(name) + " buffer has " + std::to_string(buffer.size()) +
                   " bytes, needs " + std::to_string(needed));
  }
  return Status::OK();
}

template <typename OffsetT>
Status ValidateOffsets(const ArrayData& d) {
  const int64_t n = d.length;
  if (n == 0 && d.buffers[1].size() == 0) return Status::OK();  // C++ writes an empty buffer
  HIGGINS_RETURN_IF_ERROR(
      CheckBufferSize(d.buffers[1], (d.offset + n + 1) * int64_t{sizeof(OffsetT)}, "offsets"));
  const uint8_t* offsets = d.buffers[1].data() + d.offset * int64_t{sizeof(OffsetT)};
  const int64_t data_size = static_cast<int64_t>(d.buffers[2].size());
  int64_t prev = bit_util::LoadLE<OffsetT>(offsets);
  if (prev < 0) return Corrupt("first offset " + std::to_string(prev) + " is negative");
  for (int64_t i = 1; i <= n; ++i) {
    const int64_t cur = bit_util::LoadLE<OffsetT>(offsets + i * int64_t{sizeof(OffsetT)});
    if (cur < prev) {
      return Corrupt("offsets decrease at slot " + std::to_string(i - 1) + " (" +
                     std::to_string(prev) + " > " + std::to_string(cur) + ")");
    }
    prev = cur;
  }
  if (prev > data_size) {
    return Corrupt("last offset " + std::to_string(prev) + " is past the end of the " +
                   std::to_string(data_size) + "-byte data buffer");
  }
  return Status::OK();
}

Status ValidateUtf8Slots(const Array& a) {
  for (int64_t i = 0; i < a.length(); ++i) {
    if (a.IsValid(i) && !IsValidUtf8(a.BinaryValue(i))) {
      return Corrupt("invalid UTF-8 in slot " + std::to_string(i));
    }
  }
  return Status::OK();
}

// Whether the slots' bytes, taken together, are valid UTF-8 and every offset falls on a
// character boundary: then each slot is valid UTF-8 on its own. One pass over the data instead
// of one call per slot; the offsets were validated before (ValidateOffsets).
template <typename OffsetT>
bool AllSlotsUtf8(const ArrayData& d) {
  const int64_t n = d.length;
  if (n == 0) return true;
  const uint8_t* offsets = d.buffers[1].data() + d.offset * int64_t{sizeof(OffsetT)};
  const auto at = [&](int64_t i) {
    return bit_util::LoadLE<OffsetT>(offsets + i * int64_t{sizeof(OffsetT)});
  };
  const int64_t first = at(0), last = at(n);
  const uint8_t* data = d.buffers[2].data();
  if (!IsValidUtf8(std::string_view(reinterpret_cast<const char*>(data) + first,
                                    static_cast<size_t>(last - first)))) {
    return false;
  }
  bool continuation = false;  // an inner offset pointing at a continuation byte 10xxxxxx
  for (int64_t i = 1; i < n; ++i) {
    const int64_t o = at(i);
    continuation |= o < last && (data[o] & 0xC0) == 0x80;
  }
  return !continuation;
}

Status ValidateUtf8(const Array& a) {
  const ArrayData& d = a.data();
  const bool fast = d.type.layout() == Layout::kLargeVarBinary ? AllSlotsUtf8<int64_t>(d)
                                                               : AllSlotsUtf8<int32_t>(d);
  // Otherwise some slot is invalid, or only a null slot's bytes are: decide slot by slot.
  return fast ? Status::OK() : ValidateUtf8Slots(a);
}

}  // namespace

Status ValidateFull(const Array& array) {
  const ArrayData& d = array.data();
  HIGGINS_RETURN_IF_ERROR(d.type.Validate());
  if (d.length < 0 || d.offset < 0 || d.null_count < 0 || d.null_count > d.length) {
    return Corrupt("negative length/offset or null count out of range (length " +
                   std::to_string(d.length) + ", null_count " + std::to_string(d.null_count) + ")");
  }
  if (static_cast<int>(d.buffers.size()) != d.type.num_buffers()) {
    return Corrupt(d.type.ToString() + " array has " + std::to_string(d.buffers.size()) +
                   " buffers, expected " + std::to_string(d.type.num_buffers()));
  }
  if (d.type.id() == TypeId::kNull) {
    if (d.null_count != d.length) return Corrupt("null array with null_count != length");
    return Status::OK();
  }
  const Buffer& validity = d.buffers[0];
  if (validity.empty()) {
    if (d.null_count != 0) return Corrupt("null_count > 0 but no validity bitmap");
  } else {
    HIGGINS_RETURN_IF_ERROR(
        CheckBufferSize(validity, bit_util::BytesForBits(d.offset + d.length), "validity"));
    const int64_t nulls = d.length - bit_util::CountSetBits(validity.data(), d.offset, d.length);
    if (nulls != d.null_count) {
      return Corrupt("null_count is " + std::to_string(d.null_count) + " but the bitmap has " +
                     std::to_string(nulls) + " nulls");
    }
  }
  switch (d.type.layout()) {
    case Layout::kFixedWidth: {
      const int64_t bits = int64_t{d.type.bit_width()} * (d.offset + d.length);
      HIGGINS_RETURN_IF_ERROR(CheckBufferSize(d.buffers[1], bit_util::BytesForBits(bits), "values"));
      return Status::OK();
    }
    case Layout::kVarBinary: HIGGINS_RETURN_IF_ERROR(ValidateOffsets<int32_t>(d)); break;
    case Layout::kLargeVarBinary: HIGGINS_RETURN_IF_ERROR(ValidateOffsets<int64_t>(d)); break;
    case Layout::kNull: break;
  }
  if (d.type.is_string()) return ValidateUtf8(array);
  return Status::OK();
}

Status ValidateFull(const RecordBatch& batch) {
  for (int i = 0; i < batch.num_columns(); ++i) {
    Status st = ValidateFull(batch.column(i));
    if (!st.ok()) return st.WithContext("column '" + batch.schema()->field(static_cast<size_t>(i)).name + "'");
  }
  return Status::OK();
}

}  // namespace higgins::arrow
