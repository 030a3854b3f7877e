// LoopbackHttpServer: a scripted one-request-per-connection HTTP server for client tests.
#include "s3/testing/loopback_http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace higgins::s3::testing {
namespace {

constexpr size_t kMaxHeaderBytes = 1 << 20;
constexpr int kReadTimeoutMs = 5000;

Status Errno(const std::string& what) {
  return Status::IOError("loopback server: " + what + ": " + std::strerror(errno));
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

void SendAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return;  // the client went away (timed out): nothing to answer
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

/// Splits the header block (request line and header lines, without the blank line).
bool ParseHead(std::string_view head, RecordedRequest* request) {
  size_t line_end = head.find("\r\n");
  std::string_view line = head.substr(0, line_end);
  const size_t sp1 = line.find(' ');
  const size_t sp2 = line.rfind(' ');
  if (sp1 == std::string_view::npos || sp2 == sp1) return false;
  request->method = std::string(line.substr(0, sp1));
  request->target = std::string(line.substr(sp1 + 1, sp2 - sp1 - 1));
  while (line_end != std::string_view::npos) {
    const size_t start = line_end + 2;
    line_end = head.find("\r\n", start);
    line = head.substr(
        start, line_end == std::string_view::npos ? std::string_view::npos : line_end - start);
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    request->headers.emplace_back(std::string(line.substr(0, colon)), std::string(value));
  }
  return true;
}

}  // namespace

std::vector<std::string> RecordedRequest::HeaderValues(std::string_view name) const {
  std::vector<std::string> values;
  for (const auto& [n, v] : headers) {
    if (EqualsIgnoringCase(n, name)) values.push_back(v);
  }
  return values;
}

std::string RecordedRequest::Header(std::string_view name) const {
  auto values = HeaderValues(name);
  return values.empty() ? std::string() : values.front();
}

std::string Response(int status, std::string_view body, const std::vector<std::string>& headers) {
  std::string raw = "HTTP/1.1 " + std::to_string(status) + " Scripted\r\n";
  for (const std::string& h : headers) raw += h + "\r\n";
  raw += "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
  raw += body;
  return raw;
}

Result<std::unique_ptr<LoopbackHttpServer>> LoopbackHttpServer::Start(Handler handler) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Errno("socket");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 || listen(fd, 16) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    Status status = Errno("bind");
    close(fd);
    return status;
  }
  int wake[2];
  if (pipe2(wake, O_CLOEXEC) != 0) {
    Status status = Errno("pipe");
    close(fd);
    return status;
  }
  return std::unique_ptr<LoopbackHttpServer>(
      new LoopbackHttpServer(fd, ntohs(addr.sin_port), wake[0], wake[1], std::move(handler)));
}

LoopbackHttpServer::LoopbackHttpServer(int listen_fd, uint16_t port, int wake_read, int wake_write,
                                       Handler handler)
    : listen_fd_(listen_fd),
      port_(port),
      wake_read_(wake_read),
      wake_write_(wake_write),
      handler_(std::move(handler)) {
  thread_ = std::thread([this] { Run(); });
}

LoopbackHttpServer::~LoopbackHttpServer() {
  const char byte = 1;
  (void)!write(wake_write_, &byte, 1);
  thread_.join();
  close(listen_fd_);
  close(wake_read_);
  close(wake_write_);
}

std::string LoopbackHttpServer::endpoint() const {
  return "http://127.0.0.1:" + std::to_string(port_);
}

std::vector<RecordedRequest> LoopbackHttpServer::requests() const {
  std::lock_guard lock(mu_);
  return requests_;
}

bool LoopbackHttpServer::WaitReadable(int fd, int timeout_ms) const {
  pollfd fds[2] = {{fd, POLLIN, 0}, {wake_read_, POLLIN, 0}};
  const int n = poll(fds, 2, timeout_ms);
  return n > 0 && (fds[1].revents & POLLIN) == 0 && (fds[0].revents & (POLLIN | POLLHUP)) != 0;
}

void LoopbackHttpServer::Run() {
  while (WaitReadable(listen_fd_, -1)) {
    const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    Serve(fd);
    close(fd);
  }
}

void LoopbackHttpServer::Serve(int fd) {
  std::string data;
  char chunk[65536];
  auto read_more = [&]() {
    if (!WaitReadable(fd, kReadTimeoutMs)) return false;
    const ssize_t n = recv(fd, chunk, sizeof(chunk), 0);
    if (n <= 0) return false;
    data.append(chunk, static_cast<size_t>(n));
    return true;
  };
  size_t head_end;
  while ((head_end = data.find("\r\n\r\n")) == std::string::npos) {
    if (data.size() > kMaxHeaderBytes || !read_more()) return;
  }
  RecordedRequest request;
  if (!ParseHead(std::string_view(data).substr(0, head_end), &request)) return;
  const size_t length = std::strtoull(request.Header("Content-Length").c_str(), nullptr, 10);
  if (EqualsIgnoringCase(request.Header("Expect"), "100-continue")) {
    SendAll(fd, "HTTP/1.1 100 Continue\r\n\r\n");
  }
  while (data.size() - head_end - 4 < length) {
    if (!read_more()) return;
  }
  request.body = data.substr(head_end + 4, length);
  {
    std::lock_guard lock(mu_);
    requests_.push_back(request);
  }
  const Reply reply = handler_(request);
  if (reply.delay.count() > 0) {
    pollfd wake = {wake_read_, POLLIN, 0};
    if (poll(&wake, 1, static_cast<int>(reply.delay.count())) != 0) return;
  }
  if (!reply.raw.empty()) SendAll(fd, reply.raw);
  shutdown(fd, SHUT_WR);
}

}  // namespace higgins::s3::testing
