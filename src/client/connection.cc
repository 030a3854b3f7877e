#include "client/connection.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace higgins::client_internal {

namespace {

using Clock = std::chrono::steady_clock;

struct AddrInfoDeleter {
  void operator()(addrinfo* list) const {
    if (list != nullptr) ::freeaddrinfo(list);
  }
};
using AddrInfoList = std::unique_ptr<addrinfo, AddrInfoDeleter>;

// A name lookup shared between the caller and the thread running getaddrinfo, so that either
// may finish last.
struct Lookup {
  std::mutex mu;
  std::condition_variable done_cv;
  bool done = false;
  int rc = 0;
  int system_errno = 0;
  AddrInfoList list;
};

std::string Ms(std::chrono::milliseconds ms) {
  return std::to_string(ms.count()) + " ms";
}

Status LookupError(const std::string& host, int rc, int system_errno) {
  const char* why = rc == EAI_SYSTEM ? std::strerror(system_errno) : ::gai_strerror(rc);
  return Status::IOError("cannot resolve '" + host + "': " + why);
}

Result<AddrInfoList> Resolve(const std::string& host, uint16_t port,
                             std::chrono::milliseconds timeout) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
  const std::string service = std::to_string(port);
  addrinfo* list = nullptr;
  if (::getaddrinfo(host.c_str(), service.c_str(), &hints, &list) == 0) return AddrInfoList(list);

  hints.ai_flags = AI_NUMERICSERV;
  if (timeout.count() == 0) {
    const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &list);
    if (rc != 0) return LookupError(host, rc, errno);
    return AddrInfoList(list);
  }
  auto lookup = std::make_shared<Lookup>();
  std::thread([lookup, host, service, hints] {
    addrinfo* found = nullptr;
    const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found);
    const int system_errno = errno;
    std::lock_guard lock(lookup->mu);
    lookup->rc = rc;
    lookup->system_errno = system_errno;
    lookup->list.reset(found);
    lookup->done = true;
    lookup->done_cv.notify_all();
  }).detach();
  std::unique_lock lock(lookup->mu);
  if (!lookup->done_cv.wait_for(lock, timeout, [&] { return lookup->done; })) {
    return Status::DeadlineExceeded("cannot resolve '" + host + "' within " + Ms(timeout));
  }
  if (lookup->rc != 0) return LookupError(host, lookup->rc, lookup->system_errno);
  return std::move(lookup->list);
}

// Milliseconds left until `deadline` for poll(), rounded up; -1 (no limit) without a deadline.
int PollTimeout(const std::optional<Clock::time_point>& deadline) {
  if (!deadline) return -1;
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now());
  return left.count() <= 0 ? 0 : static_cast<int>(std::min<int64_t>(left.count(), INT32_MAX));
}

// Connects to one address. Returns the socket, or sets *error to the errno that refused it;
// nullopt with *error == 0 means the deadline passed.
std::optional<UniqueFd> ConnectOne(const addrinfo& ai,
                                   const std::optional<Clock::time_point>& deadline, int* error) {
  UniqueFd fd(::socket(ai.ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, ai.ai_protocol));
  if (!fd.valid()) {
    *error = errno;
    return std::nullopt;
  }
  if (::connect(fd.get(), ai.ai_addr, ai.ai_addrlen) != 0) {
    if (errno != EINPROGRESS) {
      *error = errno;
      return std::nullopt;
    }
    pollfd p{fd.get(), POLLOUT, 0};
    int ready = 0;
    do {
      ready = ::poll(&p, 1, PollTimeout(deadline));
    } while (ready < 0 && errno == EINTR);
    if (ready == 0) {
      *error = 0;
      return std::nullopt;
    }
    int so_error = 0;
    socklen_t len = sizeof(so_error);
    if (ready < 0 || ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &so_error, &len) != 0) {
      so_error = errno;
    }
    if (so_error != 0) {
      *error = so_error;
      return std::nullopt;
    }
  }
  const int flags = ::fcntl(fd.get(), F_GETFL);
  int one = 1;
  if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0 ||
      ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) != 0) {
    *error = errno;
    return std::nullopt;
  }
  return fd;
}

}  // namespace

Result<UniqueFd> ConnectTcp(const HostPort& target, std::chrono::milliseconds timeout) {
  const std::string address = FormatAddress(target.host, target.port);
  std::optional<Clock::time_point> deadline;
  if (timeout.count() > 0) deadline = Clock::now() + timeout;
  auto resolved = Resolve(target.host, target.port, timeout);
  if (!resolved.ok()) return resolved.status();
  int last_error = ECONNREFUSED;
  for (const addrinfo* ai = resolved->get(); ai != nullptr; ai = ai->ai_next) {
    int error = 0;
    if (auto fd = ConnectOne(*ai, deadline, &error)) return std::move(*fd);
    if (error == 0 || (deadline && Clock::now() >= *deadline)) {
      return Status::DeadlineExceeded("no connection to " + address + " within " + Ms(timeout));
    }
    last_error = error;
  }
  return Status::IOError("cannot connect to " + address + ": " + std::strerror(last_error));
}

Status SendAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        return Status::DeadlineExceeded("the broker did not take the request in time");
      }
      return Status::IOError(std::string("send failed: ") + std::strerror(errno));
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Status::OK();
}

Status SetSendTimeout(int fd, std::chrono::milliseconds timeout) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
  if (::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) != 0) {
    return Status::IOError(std::string("cannot set the send timeout: ") + std::strerror(errno));
  }
  return Status::OK();
}

}  // namespace higgins::client_internal
