#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "higgins/buffer.h"
#include "higgins/result.h"

namespace higgins::cli {

/// Explicit limit on what the CLI reads into memory at once (a whole input to convert, or a whole
/// Arrow IPC file, which needs random access): 1 GiB.
inline constexpr size_t kMaxInputBytes = size_t{1} << 30;

/// Reads a whole file, or standard input when `path` is "-". Errors: IOError naming the path and
/// the reason; ResourceExhausted past `max_bytes` ("... is larger than " + `limit`, by default
/// "the limit of N MiB"), after reading at most `max_bytes` + 1 bytes.
Result<Buffer> ReadAll(const std::string& path, size_t max_bytes = kMaxInputBytes,
                       const std::string& limit = "");

/// Reads what is available now, up to `max` bytes, from `file` into `out` (resized to what was
/// read; empty only at end of input). Blocks only while nothing is available, so a reader of a
/// pipe sees data as the writer produces it. Do not mix with stdio reads of the same file.
Status ReadChunk(std::FILE* file, size_t max, std::string* out);

/// Writes all bytes to standard output. Errors: IOError (for example a closed pipe).
Status WriteStdout(std::string_view bytes);

}  // namespace higgins::cli
