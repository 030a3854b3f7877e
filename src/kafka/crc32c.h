#pragma once

#include <cstdint>
#include <string_view>

namespace higgins::kafka {

// CRC-32C (Castagnoli; reflected polynomial 0x82F63B78, initial value and final XOR 0xFFFFFFFF),
// the checksum of Kafka record batches v2 (Kafka documentation, "Message Format" > "Record
// Batch": the crc covers the bytes from the attributes to the end of the batch). The same
// function as RFC 3720's iSCSI CRC and SSE4.2's crc32 instruction: "123456789" → 0xE3069283.

/// Extends the finished CRC-32C `crc` of some bytes A over `data`, giving the CRC-32C of A then
/// `data`; start with 0 for the empty prefix. Crc32cExtend(Crc32c(a), b) == Crc32c(a + b).
/// Uses the SSE4.2 crc32 instruction on x86-64 CPUs that have it (checked once), otherwise
/// tables (slicing by 8). Thread-safe.
uint32_t Crc32cExtend(uint32_t crc, std::string_view data);

/// The CRC-32C of `data`.
inline uint32_t Crc32c(std::string_view data) {
  return Crc32cExtend(0, data);
}

/// The table-driven path of Crc32cExtend whatever the CPU, for tests and benchmarks.
uint32_t Crc32cExtendPortable(uint32_t crc, std::string_view data);

}  // namespace higgins::kafka
