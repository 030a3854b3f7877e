#pragma once

#include <string>

#include "higgins/result.h"

namespace higgins::conformance {

/// Reads and decompresses a whole gzip file (RFC 1952, as written by `gzip`).
/// Errors: IOError when the file cannot be opened or read, Corruption when the data is not
/// valid gzip.
Result<std::string> ReadGzipFile(const std::string& path);

}  // namespace higgins::conformance
