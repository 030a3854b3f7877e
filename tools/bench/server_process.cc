#include "server_process.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "higgins/client.h"

extern char** environ;

namespace higgins::bench {
namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

}  // namespace

Result<uint16_t> FreeTcpPort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return Status::IOError(std::string("socket: ") + std::strerror(errno));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    const int e = errno;
    close(fd);
    return Status::IOError(std::string("bind: ") + std::strerror(e));
  }
  close(fd);
  return ntohs(addr.sin_port);
}

Status ServerProcess::Prepare(std::string_view prefix) {
  const char* tmpdir = std::getenv("TMPDIR");
  std::string templ = (tmpdir != nullptr && *tmpdir != 0 ? std::string(tmpdir) : "/tmp") + "/" +
                      std::string(prefix) + ".XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back(0);
  if (mkdtemp(buf.data()) == nullptr) {
    return Status::IOError(std::string("mkdtemp: ") + std::strerror(errno));
  }
  root_ = buf.data();
  HIGGINS_ASSIGN_OR_RETURN(port_, FreeTcpPort());
  return Status::OK();
}

Status ServerProcess::Spawn(const std::vector<std::string>& argv_in) {
  std::vector<std::string> args = argv_in;
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string log = root_ + "/server.log";
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  const int rc = posix_spawnp(&pid_, args[0].c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    pid_ = -1;
    return Status::IOError("cannot start '" + args[0] + "': " + std::strerror(rc));
  }
  return Status::OK();
}

bool ServerProcess::Exited() {
  if (pid_ <= 0) return true;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return false;
  pid_ = -1;
  return true;
}

void ServerProcess::Stop() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    int status = 0;
    const Clock::time_point deadline = Clock::now() + std::chrono::seconds(20);
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (Clock::now() > deadline) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    pid_ = -1;
  }
  if (!root_.empty()) {
    std::error_code ec;
    fs::remove_all(root_, ec);
    root_.clear();
  }
}

std::string ServerProcess::Log() const {
  std::ifstream in(root_ + "/server.log");
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  if (text.size() > 4000) text = "..." + text.substr(text.size() - 4000);
  return text;
}

Status StartBroker(ServerProcess* server, const std::string& binary,
                   const std::vector<std::string>& extra) {
  HIGGINS_RETURN_IF_ERROR(server->Prepare("higgins-bench"));
  std::vector<std::string> args = {
      binary,        "--port", std::to_string(server->port()), "--dir", server->root() + "/data",
      "--log-level", "warn"};
  args.insert(args.end(), extra.begin(), extra.end());
  // No Kafka or HTTP listener unless the run asks for one (on a port of its own).
  const bool kafka = std::any_of(extra.begin(), extra.end(), [](const std::string& arg) {
    return arg.rfind("--kafka-port", 0) == 0;
  });
  if (!kafka) args.insert(args.end(), {"--kafka-port", "0"});
  const bool http = std::any_of(extra.begin(), extra.end(), [](const std::string& arg) {
    return arg.rfind("--http-port", 0) == 0;
  });
  if (!http) args.insert(args.end(), {"--http-port", "0"});
  HIGGINS_RETURN_IF_ERROR(server->Spawn(args));
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(30);
  while (Clock::now() < deadline) {
    if (server->Exited())
      return Status::IOError("the broker exited at start; its log:\n" + server->Log());
    ClientOptions options;
    options.port = server->port();
    options.connect_timeout = std::chrono::milliseconds(500);
    auto client = Client::Connect(options);
    if (client.ok() && (*client)->Ping().ok()) return Status::OK();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return Status::IOError("the broker did not answer within 30 s; its log:\n" + server->Log());
}

std::string DefaultBrokerPath() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "higgins";
  for (const fs::path& p :
       {self.parent_path() / "higgins",
        self.parent_path().parent_path().parent_path() / "src" / "server" / "higgins"}) {
    if (fs::exists(p, ec)) return p.string();
  }
  return "higgins";
}

bool WaitForPort(uint16_t port, std::chrono::milliseconds timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  while (true) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(port);
    const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
    close(fd);
    if (ok) return true;
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace higgins::bench
