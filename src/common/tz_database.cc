#include "common/tz_database.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace higgins {
namespace {

// A path component `.` or `..` would leave the folder or name a folder.
bool HasDotComponent(std::string_view name) {
  size_t start = 0;
  while (start <= name.size()) {
    size_t slash = name.find('/', start);
    if (slash == std::string_view::npos) slash = name.size();
    const std::string_view part = name.substr(start, slash - start);
    if (part.empty() || part == "." || part == "..") return true;
    start = slash + 1;
  }
  return false;
}

}  // namespace

std::string TzDatabaseDir() {
  const char* dir = std::getenv("TZDIR");
  return dir != nullptr && *dir != '\0' ? std::string(dir) : std::string("/usr/share/zoneinfo");
}

std::optional<bool> IsTzZone(std::string_view name, const std::string& dir) {
  struct stat folder = {};
  if (::stat(dir.c_str(), &folder) != 0 || !S_ISDIR(folder.st_mode) ||
      ::access(dir.c_str(), R_OK | X_OK) != 0) {
    return std::nullopt;
  }
  if (name.empty() || name.front() == '/' || HasDotComponent(name)) return false;
  const std::string path = dir + "/" + std::string(name);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat file = {};
  char magic[4] = {};
  const bool regular = ::fstat(fd, &file) == 0 && S_ISREG(file.st_mode);
  const bool tzif = regular && ::read(fd, magic, sizeof(magic)) == sizeof(magic) &&
                    std::memcmp(magic, "TZif", sizeof(magic)) == 0;
  ::close(fd);
  return tzif;
}

}  // namespace higgins
