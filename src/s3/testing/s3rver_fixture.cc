// S3rverProcess: s3rver as a child process for tests.
#include "s3/testing/s3rver_fixture.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <thread>
#include <vector>

#ifndef HIGGINS_SOURCE_DIR
#error "HIGGINS_SOURCE_DIR must be defined (the repository root)"
#endif

namespace higgins::s3::testing {
namespace {

constexpr auto kStartTimeout = std::chrono::seconds(20);

std::string ReadFrom(const std::string& path, std::streamoff offset) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  in.seekg(offset);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::streamoff FileSize(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 ? static_cast<std::streamoff>(st.st_size) : 0;
}

/// The port of "S3rver listening on 127.0.0.1:PORT" in `log`, or 0.
uint16_t ListeningPort(const std::string& log) {
  static const std::string kMarker = "listening on 127.0.0.1:";
  const size_t at = log.find(kMarker);
  if (at == std::string::npos) return 0;
  size_t i = at + kMarker.size();
  unsigned port = 0;
  bool digits = false;
  while (i < log.size() && log[i] >= '0' && log[i] <= '9' && port <= 65535) {
    port = port * 10 + static_cast<unsigned>(log[i++] - '0');
    digits = true;
  }
  if (!digits || i == log.size() || port == 0 || port > 65535) return 0;  // line not complete yet
  return static_cast<uint16_t>(port);
}

/// The child's environment: ours, with --openssl-legacy-provider added to NODE_OPTIONS.
/// s3rver encrypts its ListObjectsV2 continuation tokens with DES, which OpenSSL 3 (Node 17
/// and later) offers only in its legacy provider; without it every truncated listing is a 500.
std::vector<std::string> ChildEnvironment() {
  std::vector<std::string> env;
  std::string node_options = "NODE_OPTIONS=--openssl-legacy-provider";
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry(*e);
    if (entry.starts_with("NODE_OPTIONS=")) {
      node_options += " " + std::string(entry.substr(13));
    } else {
      env.emplace_back(entry);
    }
  }
  env.push_back(node_options);
  return env;
}

}  // namespace

S3rverProcess::~S3rverProcess() {
  (void)Stop();
}

std::string S3rverProcess::BinaryPath() {
  const char* overridden = std::getenv("HIGGINS_S3RVER");
  if (overridden != nullptr && overridden[0] != '\0') return overridden;
  return std::string(HIGGINS_SOURCE_DIR) + "/tools/interop/node_modules/.bin/s3rver";
}

std::string S3rverProcess::endpoint() const {
  return "http://127.0.0.1:" + std::to_string(port_);
}

Result<uint16_t> S3rverProcess::Start(const std::string& dir, const std::string& bucket) {
  HIGGINS_RETURN_IF_ERROR(Stop());
  std::error_code ec;
  std::filesystem::create_directories(dir + "/objects", ec);
  if (ec) return Status::IOError("s3rver: cannot create " + dir + "/objects: " + ec.message());
  dir_ = dir;
  bucket_ = bucket;
  return Launch(0);
}

Result<uint16_t> S3rverProcess::Restart() {
  if (dir_.empty() || port_ == 0) return Status::InvalidArgument("s3rver: Restart before Start");
  HIGGINS_RETURN_IF_ERROR(Stop());
  return Launch(port_);
}

Result<uint16_t> S3rverProcess::Launch(uint16_t port) {
  const std::string binary = BinaryPath();
  if (access(binary.c_str(), X_OK) != 0) {
    return Status::NotFound("s3rver: " + binary + " is missing (run scripts/install-deps)");
  }
  const std::string log_path = dir_ + "/s3rver.log";
  const std::streamoff log_start = FileSize(log_path);
  const std::string objects = dir_ + "/objects";
  const std::string port_text = std::to_string(port);
  std::vector<const char*> argv = {
      binary.c_str(),    "-d",        objects.c_str(), "-p",
      port_text.c_str(), "--address", "127.0.0.1",     "--configure-bucket",
      bucket_.c_str(),   "--silent",  nullptr};
  const std::vector<std::string> env = ChildEnvironment();
  std::vector<const char*> envp;
  for (const std::string& e : env) envp.push_back(e.c_str());
  envp.push_back(nullptr);
  const int log_fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0)
    return Status::IOError("s3rver: cannot open " + log_path + ": " + strerror(errno));
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(log_fd);
    return Status::IOError(std::string("s3rver: fork: ") + strerror(errno));
  }
  if (pid == 0) {
    // The child: only async-signal-safe calls until exec.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    dup2(log_fd, STDOUT_FILENO);
    dup2(log_fd, STDERR_FILENO);
    execve(binary.c_str(), const_cast<char* const*>(argv.data()),
           const_cast<char* const*>(envp.data()));
    _exit(127);
  }
  close(log_fd);
  pid_ = pid;
  const auto deadline = std::chrono::steady_clock::now() + kStartTimeout;
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string log = ReadFrom(log_path, log_start);
    if (const uint16_t listening = ListeningPort(log); listening != 0) {
      port_ = listening;
      return listening;
    }
    int wstatus = 0;
    if (waitpid(pid_, &wstatus, WNOHANG) == pid_) {
      pid_ = -1;
      return Status::IOError("s3rver exited at start: " + log);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const std::string log = ReadFrom(log_path, log_start);
  (void)Stop();
  return Status::IOError("s3rver did not listen within 20 s: " + log);
}

Status S3rverProcess::Stop() {
  if (pid_ <= 0) return Status::OK();
  kill(pid_, SIGKILL);
  int wstatus = 0;
  while (waitpid(pid_, &wstatus, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  return Status::OK();
}

}  // namespace higgins::s3::testing
