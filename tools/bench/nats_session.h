#pragma once

// A libnats connection with its JetStream context, shared by the NATS JetStream baselines of
// `higgins-bench subscribe` (subscribe_jetstream.cc) and `higgins-bench kafka`
// (kafka_jetstream.cc). Built only when CMake finds libnats.

#include <nats/nats.h>

#include <cstdint>
#include <string>

#include "higgins/status.h"

namespace higgins::bench {

/// "<what>: <status text> (JetStream error <code>): <the library's last error>".
std::string NatsError(const char* what, natsStatus s, jsErrCode code = static_cast<jsErrCode>(0));

/// A connection to nats-server on 127.0.0.1 and its JetStream context, closed on destruction.
/// Not thread-safe itself; libnats' calls on `nc` and `js` are.
struct NatsSession {
  natsConnection* nc = nullptr;
  jsCtx* js = nullptr;

  NatsSession() = default;
  NatsSession(const NatsSession&) = delete;
  NatsSession& operator=(const NatsSession&) = delete;
  ~NatsSession();

  /// Connects (no reconnection; `timeout_ms` for the connection and, through `js_options`, for
  /// JetStream API calls). send_asap: publishes are written to the socket at once rather than
  /// by the library's flusher thread. Pushes are never dropped for a slow subscriber (pending
  /// limit 10,000,000 messages).
  [[nodiscard]] Status Open(uint16_t port, bool send_asap, int timeout_ms, jsOptions* js_options);
};

}  // namespace higgins::bench
