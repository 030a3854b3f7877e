#include "broker_connection.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace higgins::cli {

Result<std::unique_ptr<Client>> ConnectToBroker(const BrokerOptions& options) {
  ClientOptions client;
  client.host = options.host;
  client.port = static_cast<uint16_t>(options.port);
  if (options.timeout_seconds > 0) {
    const auto timeout = std::chrono::milliseconds(
        std::max<int64_t>(1, std::lround(options.timeout_seconds * 1000)));
    client.connect_timeout = timeout;
    client.request_timeout = timeout;
  }
  auto connected = Client::Connect(client);
  if (connected.ok()) return connected;
  const Status& st = connected.status();
  if (st.code() != StatusCode::kIOError && st.code() != StatusCode::kDeadlineExceeded) return st;
  // A name that does not resolve is not a missing broker: no hint to start one.
  if (st.message().starts_with("cannot resolve")) return st;
  const std::string port = std::to_string(options.port);
  const bool ipv6 = options.host.find(':') != std::string::npos;
  const std::string address = (ipv6 ? "[" + options.host + "]" : options.host) + ":" + port;
  return Status(st.code(), st.message() + "; is a broker running on " + address +
                               "? start one with: higgins --port=" + port + " --dir=data");
}

}  // namespace higgins::cli
