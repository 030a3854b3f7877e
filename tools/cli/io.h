#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "common/buffer.h"
#include "common/result.h"

namespace higgins::cli {

/// Reads a whole file, or standard input when `path` is "-". Errors: IOError naming the path.
Result<Buffer> ReadAll(const std::string& path);

/// Reads up to `max` bytes from `file` into `out` (resized to what was read; empty at EOF).
Status ReadChunk(std::FILE* file, size_t max, std::string* out);

/// Writes all bytes to standard output. Errors: IOError (for example a closed pipe).
Status WriteStdout(std::string_view bytes);

}  // namespace higgins::cli
