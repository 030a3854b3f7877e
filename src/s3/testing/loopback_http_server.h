#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "higgins/result.h"

namespace higgins::s3::testing {

/// One request as it arrived on the wire.
struct RecordedRequest {
  std::string method;
  std::string target;  // path and query, exactly as sent ("/bucket/a%3Db?uploads=")
  std::vector<std::pair<std::string, std::string>> headers;  // names as sent, in order
  std::string body;

  /// Values of every header named `name` (case-insensitive), in order.
  std::vector<std::string> HeaderValues(std::string_view name) const;
  /// The first value of header `name`, or "".
  std::string Header(std::string_view name) const;
  std::string Path() const { return target.substr(0, target.find('?')); }
};

/// What the server does with a request: send `raw` (a whole HTTP response, see Response) after
/// waiting `delay`; an empty `raw` closes the connection without an answer.
struct Reply {
  std::string raw;
  std::chrono::milliseconds delay{0};
};

/// A complete "HTTP/1.1 <status>" response with Content-Length, Connection: close, the extra
/// header lines `headers` ("Name: value") and `body`.
std::string Response(int status, std::string_view body = {},
                     const std::vector<std::string>& headers = {});

/// A scripted HTTP/1.1 server on 127.0.0.1 for tests of the client's wire behaviour: one
/// thread accepts connections one at a time, reads one request each (answering
/// "Expect: 100-continue"), records it, answers with the handler's Reply and closes. The handler
/// runs on the server thread. Stops and joins its thread on destruction.
class LoopbackHttpServer {
 public:
  using Handler = std::function<Reply(const RecordedRequest&)>;

  /// Errors: IOError when the socket cannot be bound.
  static Result<std::unique_ptr<LoopbackHttpServer>> Start(Handler handler);
  ~LoopbackHttpServer();
  LoopbackHttpServer(const LoopbackHttpServer&) = delete;
  LoopbackHttpServer& operator=(const LoopbackHttpServer&) = delete;

  uint16_t port() const { return port_; }
  /// "http://127.0.0.1:<port>"
  std::string endpoint() const;
  /// Every request received so far, in arrival order.
  std::vector<RecordedRequest> requests() const;

 private:
  LoopbackHttpServer(int listen_fd, uint16_t port, int wake_read, int wake_write, Handler handler);
  void Run();
  void Serve(int fd);
  bool WaitReadable(int fd, int timeout_ms) const;  // false once stopping

  const int listen_fd_;
  const uint16_t port_;
  const int wake_read_;
  const int wake_write_;
  Handler handler_;
  mutable std::mutex mu_;
  std::vector<RecordedRequest> requests_;
  std::thread thread_;
};

}  // namespace higgins::s3::testing
