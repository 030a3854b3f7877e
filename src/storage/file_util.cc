#include "storage/file_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace higgins::storage {

FileHandle& FileHandle::operator=(FileHandle&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

FileHandle::~FileHandle() {
  if (fd_ >= 0) ::close(fd_);
}

Status ErrnoError(std::string_view what, const std::string& path, int err) {
  return Status::IOError(std::string(what) + " " + path + ": " + std::strerror(err));
}

Result<FileHandle> OpenFile(const std::string& path, int flags, mode_t mode) {
  int fd;
  do {
    fd = ::open(path.c_str(), flags | O_CLOEXEC, mode);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return ErrnoError("open", path, errno);
  return FileHandle(fd);
}

Result<uint64_t> FileSize(int fd, const std::string& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return ErrnoError("stat", path, errno);
  return static_cast<uint64_t>(st.st_size);
}

Status ReadFully(int fd, const std::string& path, uint64_t offset, uint8_t* out, size_t n) {
  while (n > 0) {
    const ssize_t got = ::pread(fd, out, n, static_cast<off_t>(offset));
    if (got < 0) {
      if (errno == EINTR) continue;
      return ErrnoError("read", path, errno);
    }
    if (got == 0) {
      return Status::IOError("read " + path + ": unexpected end of file at offset " +
                             std::to_string(offset));
    }
    out += got;
    n -= static_cast<size_t>(got);
    offset += static_cast<uint64_t>(got);
  }
  return Status::OK();
}

Status TruncateAndSync(int fd, const std::string& path, uint64_t size) {
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0) return ErrnoError("truncate", path, errno);
  if (::fsync(fd) != 0) return ErrnoError("fsync", path, errno);
  return Status::OK();
}

std::string ParentDirectory(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

Status CreateDirectories(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Status::OK();
    return Status::IOError("create directory " + path + ": exists and is not a directory");
  }
  if (errno != ENOENT) return ErrnoError("stat", path, errno);
  const std::string parent = ParentDirectory(path);
  if (parent != path) HIGGINS_RETURN_IF_ERROR(CreateDirectories(parent));
  if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
    return ErrnoError("create directory", path, errno);
  }
  return SyncDirectory(parent);
}

Result<std::vector<std::string>> ListDirectory(const std::string& path) {
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) {
    if (errno == ENOENT) return Status::NotFound("no directory " + path);
    return ErrnoError("open directory", path, errno);
  }
  std::vector<std::string> names;
  errno = 0;
  while (const dirent* entry = ::readdir(dir)) {
    std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  const int err = errno;
  ::closedir(dir);
  if (err != 0) return ErrnoError("read directory", path, err);
  return names;
}

Status RemoveTree(const std::string& path) {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
  if (ec) return Status::IOError("remove " + path + ": " + ec.message());
  return Status::OK();
}

}  // namespace higgins::storage
