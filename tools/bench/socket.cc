#include "socket.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace higgins::bench {

Result<Socket> Socket::Connect(const std::string& host, uint16_t port,
                               std::chrono::milliseconds read_timeout) {
  const std::string where = host + ":" + std::to_string(port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
  if (rc != 0) return Status::IOError("resolve " + where + ": " + gai_strerror(rc));
  std::string last_error = "no address";
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    int fd = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd < 0) {
      last_error = std::strerror(errno);
      continue;
    }
    if (::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      last_error = std::strerror(errno);
      ::close(fd);
      continue;
    }
    freeaddrinfo(found);
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    if (read_timeout > std::chrono::milliseconds::zero()) {
      const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(read_timeout);
      timeval tv{};
      tv.tv_sec = seconds.count();
      tv.tv_usec =
          std::chrono::duration_cast<std::chrono::microseconds>(read_timeout - seconds).count();
      ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    }
    return Socket(fd);
  }
  freeaddrinfo(found);
  return Status::IOError("connect " + where + ": " + last_error);
}

Status Socket::WriteAll(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(std::string("send: ") + std::strerror(errno));
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Status::OK();
}

Result<size_t> Socket::Read(char* out, size_t max) {
  while (true) {
    ssize_t n = ::recv(fd_, out, max, 0);
    if (n >= 0) return static_cast<size_t>(n);
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      return Status::IOError("recv: no reply within the read timeout");
    }
    return Status::IOError(std::string("recv: ") + std::strerror(errno));
  }
}

Socket& Socket::operator=(Socket&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

Socket::~Socket() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace higgins::bench
