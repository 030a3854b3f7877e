#include "arrow/ipc/dictionary_column.h"

#include <cstdint>
#include <limits>
#include <string>

namespace higgins::arrow::ipc {
namespace {

std::string IndexText(const Array& indices, int64_t i) {
  const int64_t value = indices.IntegerValue(i);
  // IntegerValue wraps uint64 values above INT64_MAX; print them as written.
  if (indices.type().id() == TypeId::kUInt64) return std::to_string(static_cast<uint64_t>(value));
  return std::to_string(value);
}

Status CheckBufferBytes(int64_t bytes, int64_t limit, const char* what) {
  if (bytes > limit) {
    return Status::ResourceExhausted("the decoded column's " + std::string(what) + " would take " +
                                     std::to_string(bytes) + " bytes, more than the limit of " +
                                     std::to_string(limit));
  }
  return Status::OK();
}

// Checks every valid index against the dictionary and sums the bytes of the var-binary values
// they select (0 for other types).
Result<int64_t> CheckIndices(const Array& indices, const Array& dictionary, std::string_view name) {
  const int64_t size = dictionary.length();
  const bool var_binary = dictionary.type().is_var_binary();
  int64_t data_bytes = 0;
  for (int64_t i = 0; i < indices.length(); ++i) {
    if (indices.IsNull(i)) continue;
    const int64_t index = indices.IntegerValue(i);
    if (index < 0 || index >= size) {
      return Status::Corruption("index " + IndexText(indices, i) + " at row " + std::to_string(i) +
                                " is out of range of " + std::string(name) + " (" +
                                std::to_string(size) + " values)");
    }
    if (var_binary && dictionary.IsValid(index)) {
      data_bytes += static_cast<int64_t>(dictionary.BinaryValue(index).size());
    }
  }
  return data_bytes;
}

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): (rows, bytes, limit), named at each call
Status CheckResultSize(const DataType& type, int64_t rows, int64_t data_bytes, int64_t limit) {
  switch (type.layout()) {
    case Layout::kNull: return Status::OK();
    case Layout::kFixedWidth: {
      const int64_t bits =
          type.id() == TypeId::kFixedSizeBinary ? int64_t{type.byte_width()} * 8 : type.bit_width();
      // rows <= max_batch_rows < 2^63 / 128: no overflow.
      return CheckBufferBytes((rows * bits + 7) / 8, limit, "values");
    }
    case Layout::kVarBinary:
      HIGGINS_RETURN_IF_ERROR(CheckBufferBytes((rows + 1) * 4, limit, "offsets"));
      HIGGINS_RETURN_IF_ERROR(CheckBufferBytes(data_bytes, limit, "data"));
      if (data_bytes > std::numeric_limits<int32_t>::max()) {
        return Status::ResourceExhausted("the decoded column's data would take " +
                                         std::to_string(data_bytes) + " bytes, more than " +
                                         type.ToString() + "'s 32-bit offsets can address");
      }
      return Status::OK();
    case Layout::kLargeVarBinary:
      HIGGINS_RETURN_IF_ERROR(CheckBufferBytes((rows + 1) * 8, limit, "offsets"));
      return CheckBufferBytes(data_bytes, limit, "data");
  }
  return Status::OK();
}

}  // namespace

Result<Array> DecodeDictionaryIndices(const Array& indices, const Array& dictionary,
                                      std::string_view dictionary_name, int64_t max_buffer_bytes) {
  if (!indices.type().is_integer()) {
    return Status::Internal("dictionary indices of type " + indices.type().ToString());
  }
  const DataType& type = dictionary.type();
  HIGGINS_ASSIGN_OR_RETURN(const int64_t data_bytes,
                           CheckIndices(indices, dictionary, dictionary_name));
  HIGGINS_RETURN_IF_ERROR(CheckResultSize(type, indices.length(), data_bytes, max_buffer_bytes));
  if (type.layout() == Layout::kNull) return MakeNullArray(type, indices.length());

  ArrayBuilder builder(type);
  builder.Reserve(indices.length(), data_bytes);
  for (int64_t i = 0; i < indices.length(); ++i) {
    if (indices.IsNull(i)) {
      builder.AppendNull();
    } else {
      HIGGINS_RETURN_IF_ERROR(builder.AppendFrom(dictionary, indices.IntegerValue(i)));
    }
  }
  return builder.Finish();
}

}  // namespace higgins::arrow::ipc
