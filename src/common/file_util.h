#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "higgins/result.h"

/// File helpers: whole-file reads, atomic replacement, folder syncs, the data folder's lock, and
/// thin POSIX wrappers for the storages. Every failure is an IOError naming the operation, the
/// path and strerror (NotFound where said). Thread-safe (no state besides the descriptors).
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

/// An owned file descriptor, closed on destruction. Movable, not copyable.
class FileHandle {
 public:
  FileHandle() = default;
  explicit FileHandle(int fd) : fd_(fd) {}
  FileHandle(FileHandle&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  FileHandle& operator=(FileHandle&& other) noexcept;
  FileHandle(const FileHandle&) = delete;
  FileHandle& operator=(const FileHandle&) = delete;
  ~FileHandle();

  int fd() const { return fd_; }
  bool valid() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

/// IOError "<what> <path>: <strerror(err)>".
Status ErrnoError(std::string_view what, const std::string& path, int err);

/// open(2) with O_CLOEXEC added.
Result<FileHandle> OpenFile(const std::string& path, int flags, mode_t mode = 0644);

/// The file's size (fstat).
Result<uint64_t> FileSize(int fd, const std::string& path);

/// Reads exactly `n` bytes at `offset`, retrying short reads; reaching the end of the file
/// first is an IOError.
Status ReadFully(int fd, const std::string& path, uint64_t offset, uint8_t* out, size_t n);

/// ftruncate(2) to `size`, then fsync(2), so that the cut survives a crash.
Status TruncateAndSync(int fd, const std::string& path, uint64_t size);

/// mkdir -p: creates `path` and its missing parents (mode 0755); each directory created is
/// made durable by syncing its parent.
Status CreateDirectories(const std::string& path);

/// Names in directory `path` (without "." and ".."), unsorted. NotFound when it is absent.
Result<std::vector<std::string>> ListDirectory(const std::string& path);

/// rm -r of `path`; OK when it does not exist.
Status RemoveTree(const std::string& path);

/// `path` without its last component ("a/b/c" -> "a/b", "c" -> ".").
std::string ParentDirectory(const std::string& path);

}  // namespace higgins
