#include "kafka/varint.h"

namespace higgins::kafka {
namespace {

uint64_t ZigZag(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}

int64_t UnZigZag(uint64_t value) {
  return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
}

}  // namespace

void PutUvarint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

void PutVarint(std::string& out, int64_t value) { PutUvarint(out, ZigZag(value)); }

size_t GetUvarint(std::string_view in, uint64_t* value, size_t max_bytes) {
  uint64_t result = 0;
  for (size_t i = 0; i < in.size() && i < max_bytes && i < 10; ++i) {
    const auto byte = static_cast<uint8_t>(in[i]);
    // The tenth byte holds bit 63 only.
    if (i == 9 && byte > 1) return 0;
    result |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) {
      *value = result;
      return i + 1;
    }
  }
  return 0;
}

size_t GetVarint(std::string_view in, int64_t* value, size_t max_bytes) {
  uint64_t raw = 0;
  const size_t n = GetUvarint(in, &raw, max_bytes);
  if (n != 0) *value = UnZigZag(raw);
  return n;
}

size_t UvarintSize(uint64_t value) {
  size_t n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}

size_t VarintSize(int64_t value) { return UvarintSize(ZigZag(value)); }

}  // namespace higgins::kafka
