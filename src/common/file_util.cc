#include "common/file_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace higgins {
namespace {

Status Errno(std::string_view what, const std::string& path) {
  return ErrnoError(what, path, errno);
}

}  // namespace

Result<std::string> ReadFileToString(const std::string& path, size_t max_bytes) {
  FileHandle f(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!f.valid()) {
    if (errno == ENOENT) return Status::NotFound(path + " does not exist");
    return Errno("open", path);
  }
  struct stat st {};
  if (::fstat(f.fd(), &st) != 0) return Errno("stat", path);
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    return Status::ResourceExhausted(path + " has " + std::to_string(st.st_size) +
                                     " bytes, more than the limit of " +
                                     std::to_string(max_bytes));
  }
  std::string out(static_cast<size_t>(st.st_size), '\0');
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::read(f.fd(), out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Errno("read", path);
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  out.resize(done);
  return out;
}

Status SyncDirectory(const std::string& path) {
  FileHandle f(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!f.valid()) return Errno("open folder", path);
  if (::fsync(f.fd()) != 0) return Errno("fsync folder", path);
  return Status::OK();
}

Status WriteFileAtomically(const std::string& path, std::string_view bytes, unsigned mode) {
  const std::string tmp = path + ".tmp";
  {
    FileHandle f(
        ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, static_cast<mode_t>(mode)));
    if (!f.valid()) return Errno("create", tmp);
    size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = ::write(f.fd(), bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Errno("write", tmp);
      done += static_cast<size_t>(n);
    }
    if (::fsync(f.fd()) != 0) return Errno("fsync", tmp);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) return Errno("rename to " + path, tmp);
  const size_t slash = path.find_last_of('/');
  return SyncDirectory(slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash));
}

Result<FileLock> FileLock::Acquire(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("open", path);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    char holder[32] = {};
    ssize_t n = ::pread(fd, holder, sizeof(holder) - 1, 0);
    ::close(fd);
    if (error == EWOULDBLOCK) {
      std::string pid = n > 0 ? std::string(holder, static_cast<size_t>(n)) : "unknown";
      while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
      return Status::AlreadyExists(path + " is locked by process " + pid +
                                   ": another broker uses this folder");
    }
    errno = error;
    return Errno("lock", path);
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
    Status s = Errno("write", path);
    ::close(fd);
    return s;
  }
  return FileLock(fd);
}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

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

}  // namespace higgins
