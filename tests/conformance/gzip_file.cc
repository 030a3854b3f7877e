#include "tests/conformance/gzip_file.h"

#include <zlib.h>

#include <memory>

namespace higgins::conformance {
namespace {

struct GzCloser {
  void operator()(gzFile_s* f) const { gzclose(f); }
};

}  // namespace

Result<std::string> ReadGzipFile(const std::string& path) {
  std::unique_ptr<gzFile_s, GzCloser> f(gzopen(path.c_str(), "rb"));
  if (!f) return Status::IOError("cannot open '" + path + "'");
  std::string out;
  char chunk[1 << 16];
  for (;;) {
    const int n = gzread(f.get(), chunk, sizeof(chunk));
    if (n < 0) {
      int errnum = 0;
      const char* message = gzerror(f.get(), &errnum);
      return Status::Corruption("cannot decompress '" + path + "': " + message);
    }
    if (n == 0) break;
    out.append(chunk, static_cast<size_t>(n));
  }
  // zlib passes non-gzip input through unchanged ("transparent" mode); refuse it instead.
  if (gzdirect(f.get()) != 0) return Status::Corruption("'" + path + "' is not gzip data");
  return out;
}

}  // namespace higgins::conformance
