#pragma once

#include <cstddef>
#include <cstdint>

namespace higgins::udf {

/// The framing of every byte string crossing the module boundary (docs/udf-abi.md): an 8-byte
/// big-endian length, then that many bytes. Inputs are written at a pointer from `_malloc`; a
/// result (from `run`) and error text (from `get_errors`) are read at the pointer returned.
inline constexpr size_t kLengthPrefixBytes = 8;

/// Bytes in one page of WebAssembly linear memory.
inline constexpr uint64_t kWasmPageBytes = uint64_t{64} * 1024;

inline uint64_t LoadLengthPrefix(const uint8_t* p) {
  uint64_t v = 0;
  for (size_t i = 0; i < kLengthPrefixBytes; ++i) v = (v << 8) | p[i];
  return v;
}

inline void StoreLengthPrefix(uint8_t* p, uint64_t v) {
  for (size_t i = kLengthPrefixBytes; i-- > 0; v >>= 8) p[i] = static_cast<uint8_t>(v & 0xFF);
}

}  // namespace higgins::udf
