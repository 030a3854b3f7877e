#include "io.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

namespace higgins::cli {

Status ReadChunk(std::FILE* file, size_t max, std::string* out) {
  out->resize(max);
  ssize_t n;
  do {
    n = ::read(fileno(file), out->data(), max);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    out->clear();
    return Status::IOError(std::strerror(errno));
  }
  out->resize(static_cast<size_t>(n));
  return Status::OK();
}

Result<Buffer> ReadAll(const std::string& path, size_t max_bytes, const std::string& limit) {
  const std::string limit_name =
      limit.empty() ? "the limit of " + std::to_string(max_bytes >> 20) + " MiB" : limit;
  std::FILE* file = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    return Status::IOError("cannot open '" + path + "': " + std::strerror(errno));
  }
  BufferBuilder out;
  std::vector<char> chunk(1 << 20);
  const std::string name = path == "-" ? "standard input" : "'" + path + "'";
  while (true) {
    // Never more than one byte past the limit, so /dev/zero is refused at once.
    const size_t want = std::min(chunk.size(), max_bytes + 1 - out.size());
    size_t n = std::fread(chunk.data(), 1, want, file);
    if (out.size() + n > max_bytes) {
      if (file != stdin) std::fclose(file);
      std::string message = name;
      message.append(" is larger than ").append(limit_name);
      return Status::ResourceExhausted(std::move(message));
    }
    out.Append(chunk.data(), n);
    if (n < want) break;
  }
  const bool failed = std::ferror(file) != 0;
  const int err = errno;
  if (file != stdin) std::fclose(file);
  if (failed) return Status::IOError("cannot read '" + path + "': " + std::strerror(err));
  return out.Finish();
}

Status WriteStdout(std::string_view bytes) {
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size()) {
    return Status::IOError(std::string("cannot write to standard output: ") + std::strerror(errno));
  }
  return Status::OK();
}

}  // namespace higgins::cli
