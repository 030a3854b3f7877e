#pragma once

#include <cstdint>
#include <string_view>

#include "higgins/arrow/array.h"
#include "higgins/result.h"

namespace higgins::arrow::ipc {

/// Materializes a dictionary-encoded column as its plain value type: slot i is
/// dictionary[indices[i]], null when the index is null or that dictionary value is null.
/// `indices` has any integer type (int8..int64, uint8..uint64); the index values behind null
/// slots are ignored. The result owns new buffers and does not refer to either input.
///
/// Errors: Corruption when a valid index is negative or not below dictionary.length()
/// naming the dictionary ("index 7 at row 2 is out of range of dictionary 0 (3 values)");
/// ResourceExhausted, before anything is allocated, when one buffer of the result would exceed
/// `max_buffer_bytes` (a 2-byte dictionary value repeated 2^31 times must not become 4 GiB), or
/// when the data of a utf8/binary result would not fit its 32-bit offsets.
Result<Array> DecodeDictionaryIndices(const Array& indices, const Array& dictionary,
                                      std::string_view dictionary_name, int64_t max_buffer_bytes);

}  // namespace higgins::arrow::ipc
