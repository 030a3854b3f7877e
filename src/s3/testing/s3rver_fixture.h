#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "higgins/result.h"

namespace higgins::s3::testing {

/// A real local S3 server for tests: the npm package s3rver (tools/interop, installed by
/// scripts/install-deps) run as a child process on 127.0.0.1. s3rver accepts any well-formed
/// SigV4 request from its built-in account (access key and secret "S3RVER") without checking the
/// signature itself; signatures are checked against botocore in s3_signature_test.cc. The child
/// runs with NODE_OPTIONS=--openssl-legacy-provider: s3rver's continuation tokens use DES, which
/// Node 17+ (OpenSSL 3) lacks otherwise, so every truncated listing would fail with HTTP 500.
///
///   S3rverProcess s3;
///   HIGGINS_ASSIGN_OR_RETURN(uint16_t port, s3.Start(dir, "bucket"));
///   options.endpoint = s3.endpoint(); options.access_key_id = S3rverProcess::kAccessKey; ...
///   s3.Stop(); ... s3.Restart();   // the same port, folder and bucket
///
/// The child gets SIGKILL when this object is destroyed, and (PR_SET_PDEATHSIG) when the thread
/// that started it exits, so a crashed test leaves no server behind. Not thread-safe.
class S3rverProcess {
 public:
  static constexpr const char* kAccessKey = "S3RVER";
  static constexpr const char* kSecretKey = "S3RVER";

  S3rverProcess() = default;
  ~S3rverProcess();
  S3rverProcess(const S3rverProcess&) = delete;
  S3rverProcess& operator=(const S3rverProcess&) = delete;

  /// The s3rver script: $HIGGINS_S3RVER when set, else
  /// <source dir>/tools/interop/node_modules/.bin/s3rver.
  static std::string BinaryPath();

  /// Starts s3rver on a free port with objects under `dir`/objects (created if needed) and
  /// `bucket` created, its output appended to `dir`/s3rver.log; waits until it listens (at most
  /// 20 s). Returns the port. Errors: NotFound when the script is missing; IOError when the
  /// process cannot start or exits or does not listen in time (the message holds its log).
  Result<uint16_t> Start(const std::string& dir, const std::string& bucket);

  /// Kills the server (SIGKILL) and reaps it. OK when it is not running.
  Status Stop();

  /// Starts it again on the same port, folder and bucket (the objects are kept). Errors: as
  /// Start, and InvalidArgument when it was never started.
  Result<uint16_t> Restart();

  bool running() const { return pid_ > 0; }
  uint16_t port() const { return port_; }
  /// "http://127.0.0.1:<port>"
  std::string endpoint() const;

 private:
  Result<uint16_t> Launch(uint16_t port);

  std::string dir_;
  std::string bucket_;
  uint16_t port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace higgins::s3::testing
