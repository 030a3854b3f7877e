#pragma once

// Test-only: the fixture of the tests that run the S3 client against a scripted loopback HTTP
// server (s3_retry_test.cc, s3_uploads_test.cc).

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "s3/s3_client.h"
#include "s3/testing/loopback_http_server.h"

namespace higgins::s3 {

class ScriptedServerTest : public ::testing::Test {
 protected:
  /// Starts the server with `handler`, which gets the 0-based number of each request.
  void Serve(std::function<testing::Reply(int, const testing::RecordedRequest&)> handler) {
    auto server = testing::LoopbackHttpServer::Start(
        [this, handler](const testing::RecordedRequest& r) { return handler(count_++, r); });
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = *std::move(server);
  }

  /// A client's options for the server: 3 attempts, backoff of 5 ms to 20 ms.
  S3Options ClientOptions(std::string bucket, std::string access_key_id,
                          std::string secret_access_key) const {
    S3Options o;
    o.endpoint = server_->endpoint();
    o.bucket = std::move(bucket);
    o.access_key_id = std::move(access_key_id);
    o.secret_access_key = std::move(secret_access_key);
    o.max_attempts = 3;
    o.backoff_base = std::chrono::milliseconds(5);
    o.backoff_max = std::chrono::milliseconds(20);
    return o;
  }

  /// The client of `options`; nullptr (and a failure) when MakeS3ObjectStore refuses them.
  static std::unique_ptr<ObjectStore> Make(const S3Options& options) {
    auto store = MakeS3ObjectStore(options);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? *std::move(store) : nullptr;
  }

  std::vector<testing::RecordedRequest> recorded() const { return server_->requests(); }

  std::atomic<int> count_{0};
  std::unique_ptr<testing::LoopbackHttpServer> server_;
};

}  // namespace higgins::s3
