#pragma once

#include <memory>
#include <string>

#include "higgins/client.h"
#include "higgins/result.h"

namespace higgins::cli {

/// The global options that address a broker (`higgins-cli --host H --port P --timeout S CMD`).
struct BrokerOptions {
  std::string host = "127.0.0.1";
  int port = 4932;
  /// Seconds allowed to connect and for each reply; 0 keeps the client library's defaults
  /// (5 s to connect, 30 s per reply).
  double timeout_seconds = 0;
};

/// Connects to the broker. A failure to connect (IOError, DeadlineExceeded) gets a hint:
/// `...; is a broker running on H:P? start one with: higgins --port=P --dir=data`.
Result<std::unique_ptr<Client>> ConnectToBroker(const BrokerOptions& options);

}  // namespace higgins::cli
