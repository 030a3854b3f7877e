#pragma once

#include <span>
#include <string>

#include "higgins/buffer.h"
#include "higgins/result.h"

namespace higgins::testing {

/// Reads the whole file at `path` into a 64-byte aligned Buffer.
/// Errors: IOError naming the path and the OS error.
Result<Buffer> ReadWholeFile(const std::string& path);

/// Creates or truncates `path` and writes `bytes` to it. Errors: IOError naming the path.
Status WriteWholeFile(const std::string& path, std::span<const uint8_t> bytes);

}  // namespace higgins::testing
