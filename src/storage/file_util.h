#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/file_util.h"  // SyncDirectory
#include "higgins/result.h"

/// Thin POSIX helpers for the file storage: every failure becomes an IOError naming the
/// operation, the path and strerror. Thread-safe (no state besides the descriptors).
namespace higgins::storage {

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

// SyncDirectory (fsync of a folder) comes from common/file_util.h.

/// mkdir -p: creates `path` and its missing parents (mode 0755); each directory created is
/// made durable by syncing its parent.
Status CreateDirectories(const std::string& path);

/// Names in directory `path` (without "." and ".."), unsorted. NotFound when it is absent.
Result<std::vector<std::string>> ListDirectory(const std::string& path);

/// rm -r of `path`; OK when it does not exist.
Status RemoveTree(const std::string& path);

/// `path` without its last component ("a/b/c" -> "a/b", "c" -> ".").
std::string ParentDirectory(const std::string& path);

}  // namespace higgins::storage
