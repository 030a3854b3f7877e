#pragma once

#include <string>
#include <string_view>

#include "higgins/result.h"

namespace higgins {

/// Reads a whole file. Errors: NotFound when it does not exist, IOError otherwise,
/// ResourceExhausted when it is larger than `max_bytes`.
Result<std::string> ReadFileToString(const std::string& path, size_t max_bytes = 1u << 30);

/// Replaces `path` with `bytes` so that a crash leaves either the old or the new content: writes
/// `path`.tmp, fsyncs it, renames it over `path` and fsyncs the folder. Errors: IOError naming
/// the step and file. `mode`: the new file's permission bits (before the umask).
Status WriteFileAtomically(const std::string& path, std::string_view bytes, unsigned mode = 0644);

/// fsyncs a folder, making entries created or renamed in it durable. Errors: IOError.
Status SyncDirectory(const std::string& path);

/// An exclusive advisory lock (flock) on a file, held while the object lives: one process per
/// data folder. Move-only.
class FileLock {
 public:
  /// Creates `path` if needed and locks it; writes this process id into it. Errors:
  /// AlreadyExists "<path> is locked by process N" when another process holds it; IOError.
  static Result<FileLock> Acquire(const std::string& path);
  FileLock(FileLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  ~FileLock();

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace higgins
