#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace higgins::kafka {

// Fixed-width big-endian integers (network byte order) of the record batch header, loaded from
// and stored to unaligned memory. The callers check the bounds. Little-endian hosts only, as
// everywhere in Higgins.

template <typename T>
inline T LoadBigEndian(const char* p) {
  using U = std::make_unsigned_t<T>;
  U v;
  std::memcpy(&v, p, sizeof(U));
  if constexpr (sizeof(U) == 2) v = __builtin_bswap16(v);
  if constexpr (sizeof(U) == 4) v = __builtin_bswap32(v);
  if constexpr (sizeof(U) == 8) v = __builtin_bswap64(v);
  return static_cast<T>(v);
}

template <typename T>
inline void StoreBigEndian(char* p, T value) {
  using U = std::make_unsigned_t<T>;
  auto v = static_cast<U>(value);
  if constexpr (sizeof(U) == 2) v = __builtin_bswap16(v);
  if constexpr (sizeof(U) == 4) v = __builtin_bswap32(v);
  if constexpr (sizeof(U) == 8) v = __builtin_bswap64(v);
  std::memcpy(p, &v, sizeof(U));
}

}  // namespace higgins::kafka
