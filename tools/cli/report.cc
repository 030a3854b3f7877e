#include "report.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

namespace higgins::cli {

void Report(Status status, int* exit_code) {
  if (status.ok() && std::fflush(stdout) != 0) {
    status =
        Status::IOError(std::string("cannot write to standard output: ") + std::strerror(errno));
  }
  if (status.ok()) {
    *exit_code = 0;
    return;
  }
  const std::string prefix = "higgins-cli: " + std::string(StatusCodeName(status.code())) + ": ";
  const std::string& message = status.message();
  size_t start = 0;
  do {
    const size_t end = std::min(message.find('\n', start), message.size());
    std::cerr << prefix << std::string_view(message).substr(start, end - start) << "\n";
    start = end + 1;
  } while (start < message.size());
  *exit_code = 1;
}

}  // namespace higgins::cli
