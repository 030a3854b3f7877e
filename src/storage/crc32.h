#pragma once

#include <cstddef>
#include <cstdint>

namespace higgins::storage {

/// Extends the CRC-32 `crc` (zlib's crc32: polynomial 0xEDB88320, start with 0) over `n` bytes;
/// same result as zlib's crc32_z. On x86-64 CPUs with PCLMULQDQ and SSE4.1 (checked once at run
/// time) it folds 64 bytes per step with carry-less multiplies (Intel's "Fast CRC Computation
/// for Generic Polynomials Using PCLMULQDQ", as in Chromium's zlib), about 5x faster than zlib's
/// table-driven code on the produce and read paths; elsewhere it calls zlib. Thread-safe.
uint32_t Crc32(uint32_t crc, const uint8_t* data, size_t n);

}  // namespace higgins::storage
