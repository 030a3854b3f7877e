#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace higgins::server {

/// What one read takes from a socket.
inline constexpr size_t kReadChunkBytes = size_t{64} * 1024;

/// The calling thread's read buffer (kReadChunkBytes), shared by every connection of every
/// listener that thread serves: a connection reads into it and hands the bytes to its frame
/// decoder at once, so an idle connection holds no read buffer (docs/operations.md,
/// "Connection memory"). Valid until the thread's next read.
std::span<uint8_t> ThreadReadBuffer();

}  // namespace higgins::server
