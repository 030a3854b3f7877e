#pragma once

#include <string>
#include <string_view>

#include "common/result.h"

namespace higgins {

/// Reads a whole file. Errors: NotFound when it does not exist, IOError otherwise,
/// ResourceExhausted when it is larger than `max_bytes`.
Result<std::string> ReadFileToString(const std::string& path, size_t max_bytes = 1u << 30);

/// Replaces `path` with `bytes` so that a crash leaves either the old or the new content: writes
/// `path`.tmp, fsyncs it, renames it over `path` and fsyncs the folder. Errors: IOError naming
/// the step and file.
Status WriteFileAtomically(const std::string& path, std::string_view bytes);

/// fsyncs a folder, making entries created or renamed in it durable. Errors: IOError.
Status SyncDirectory(const std::string& path);

}  // namespace higgins
