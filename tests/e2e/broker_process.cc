#include "broker_process.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string_view>
#include <thread>

extern char** environ;

namespace higgins::test {

BrokerProcess::BrokerProcess(std::string dir, std::vector<std::string> extra_args)
    : dir_(std::move(dir)), extra_args_(std::move(extra_args)) {}

BrokerProcess::~BrokerProcess() {
  if (pid_ > 0) Kill9();
}

std::string BrokerProcess::Log() const {
  std::ifstream in(dir_ + ".log");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void BrokerProcess::Start() {
  StartImpl(/*exit_is_failure=*/true);
}

bool BrokerProcess::StartOrExit() {
  StartImpl(/*exit_is_failure=*/false);
  return running();
}

void BrokerProcess::StartImpl(bool exit_is_failure) {
  const std::string log_path = dir_ + ".log";
  std::vector<std::string> args = {HIGGINS_BROKER_BINARY, "--port=0", "--dir=" + dir_};
  // The log level is info, and there is no Kafka or HTTP listener, unless the test asks otherwise.
  auto asks = [&](std::string_view flag) {
    return std::any_of(extra_args_.begin(), extra_args_.end(),
                       [&](const auto& a) { return a.rfind(flag, 0) == 0; });
  };
  if (!asks("--log-level")) args.emplace_back("--log-level=info");
  if (!asks("--kafka-port")) args.emplace_back("--kafka-port=0");
  if (!asks("--http-port")) args.emplace_back("--http-port=0");
  args.insert(args.end(), extra_args_.begin(), extra_args_.end());
  // Each start appends to the log; remember where this start's output begins.
  std::error_code ec;
  const auto offset =
      std::filesystem::exists(log_path, ec) ? std::filesystem::file_size(log_path, ec) : 0;
  // Everything the child needs is built before fork: between fork and exec it only calls
  // async-signal-safe functions.
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view var(*e);
    const bool replaced = std::any_of(
        env_.begin(), env_.end(), [&](const auto& kv) { return var.starts_with(kv.first + "="); });
    if (!replaced) env_strings.emplace_back(var);
  }
  for (const auto& [name, value] : env_) env_strings.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_ = ::fork();
  ASSERT_GE(pid_, 0);
  if (pid_ == 0) {
    int fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  const std::regex listening("listening on [0-9.]+:([0-9]+)");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    std::string log = Log().substr(offset);
    std::smatch m;
    if (std::regex_search(log, m, listening)) {
      port_ = static_cast<uint16_t>(std::stoi(m[1]));
      return;
    }
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
      if (exit_is_failure) FAIL() << "the broker exited during start-up; log:\n" << log;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  FAIL() << "the broker did not start within 20 s; log:\n" << Log();
}

int BrokerProcess::Wait() {
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return -WTERMSIG(status);
}

int BrokerProcess::Terminate() {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  return Wait();
}

void BrokerProcess::Kill9() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  Wait();
}

TempDir::TempDir() {
  char pattern[] = "/tmp/higgins-e2e-XXXXXX";
  char* made = ::mkdtemp(pattern);
  path_ = made != nullptr ? made : "/tmp/higgins-e2e-failed";
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string ReadExampleModule(const std::string& name) {
  const std::string path = std::string(HIGGINS_UDF_EXAMPLES_DIR) + "/" + name + ".wasm";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "cannot read " << path << " (built by the wasm_" << name << " target)";
    return "";
  }
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace higgins::test
