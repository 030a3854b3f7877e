#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace higgins::kafka {

// Variable-length integers of the Kafka protocol (the protocol guide, "Protocol Primitive
// Types"): UNSIGNED_VARINT is base-128 with the low 7 bits first and the top bit of each byte
// set while more bytes follow; VARINT and VARLONG are ZigZag-encoded signed values written the
// same way. Record batches v2 use the signed forms; flexible versions use unsigned ones for
// compact lengths and tagged fields.

/// Appends `value` as an unsigned varint (1 to 10 bytes).
void PutUvarint(std::string& out, uint64_t value);
/// Appends `value` ZigZag-encoded (0, -1, 1, -2, ... become 0, 1, 2, 3, ...).
void PutVarint(std::string& out, int64_t value);

/// Reads an unsigned varint at the start of `in` into `*value`. Returns the bytes it took, or 0
/// when `in` ends inside the number or the number runs past `max_bytes` (5 for a 32-bit
/// UNSIGNED_VARINT or VARINT, 10 for a VARLONG) or past 64 bits.
size_t GetUvarint(std::string_view in, uint64_t* value, size_t max_bytes = 10);
/// GetUvarint, then ZigZag decoding.
size_t GetVarint(std::string_view in, int64_t* value, size_t max_bytes = 10);

/// The bytes PutUvarint would write for `value`.
size_t UvarintSize(uint64_t value);
/// The bytes PutVarint would write for `value`.
size_t VarintSize(int64_t value);

}  // namespace higgins::kafka
