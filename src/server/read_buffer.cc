#include "server/read_buffer.h"

#include <array>

namespace higgins::server {

std::span<uint8_t> ThreadReadBuffer() {
  thread_local std::array<uint8_t, kReadChunkBytes> buffer;
  return buffer;
}

}  // namespace higgins::server
