#include "tests/support/whole_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace higgins::testing {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

Status OsError(const std::string& what, const std::string& path) {
  return Status::IOError(what + " '" + path + "': " + std::strerror(errno));
}

}  // namespace

Result<Buffer> ReadWholeFile(const std::string& path) {
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) return OsError("cannot open", path);
  std::vector<uint8_t> bytes;
  uint8_t chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), f.get())) > 0) {
    bytes.insert(bytes.end(), chunk, chunk + n);
  }
  if (std::ferror(f.get())) return OsError("cannot read", path);
  return Buffer::Copy(std::span<const uint8_t>(bytes));
}

Status WriteWholeFile(const std::string& path, std::span<const uint8_t> bytes) {
  File f(std::fopen(path.c_str(), "wb"));
  if (!f) return OsError("cannot create", path);
  if (std::fwrite(bytes.data(), 1, bytes.size(), f.get()) != bytes.size()) {
    return OsError("cannot write", path);
  }
  if (std::fflush(f.get()) != 0) return OsError("cannot write", path);
  return Status::OK();
}

}  // namespace higgins::testing
