#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "higgins/buffer.h"
#include "higgins/result.h"

namespace higgins::s3 {

/// One HTTP request. Every header in `headers` is signed by libcurl's SigV4 signer.
struct HttpRequest {
  std::string method;                // GET, HEAD, PUT, POST or DELETE
  std::string url;                   // already percent-encoded; sent and signed as it is
  std::vector<std::string> headers;  // "Name: value"
  std::span<const uint8_t> body;     // PUT and POST only; the caller keeps it alive
  /// A longer response body fails the request with ResourceExhausted (a misbehaving server
  /// cannot make the client allocate without bound).
  uint64_t max_response_bytes = 16u << 20;
  /// Bytes reserved up front for a 2xx response body (the length of a ranged GET).
  uint64_t expected_response_bytes = 0;
};

/// The final answer to a request (interim 1xx answers are skipped).
struct HttpResponse {
  long status = 0;
  Buffer body;
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased, values trimmed

  /// The value of the first header named `lower_name`, or "" when there is none.
  std::string Header(std::string_view lower_name) const;
};

/// Signing and limits shared by every request of an HttpClient.
struct HttpClientOptions {
  std::string region;  // SigV4 scope: "aws:amz:<region>:s3"
  std::string access_key_id;
  std::string secret_access_key;
  std::chrono::milliseconds connect_timeout{2000};
  std::chrono::milliseconds request_timeout{30000};
};

/// Sends SigV4-signed HTTP requests with libcurl (one easy handle per request in flight, idle
/// handles kept in a small pool so their connections are reused). Thread-safe. Knows nothing of
/// S3 beyond the signing scope.
///
/// libcurl 7.88's signer, as observed on the wire (s3_signature_test.cc checks it against
/// botocore): it signs host, x-amz-date and every header in HttpRequest::headers; it takes the
/// payload hash from an x-amz-content-sha256 header when one is given (else it does not send
/// one, which S3 refuses); it signs the path and the query exactly as sent, unsorted and without
/// adding '=' (so callers send CanonicalQuery). A caller-supplied X-Amz-Date is used for the
/// signature but sent twice (libcurl adds its own copy), which servers read as "d, d" and refuse:
/// callers must not supply one.
class HttpClient {
 public:
  explicit HttpClient(HttpClientOptions options);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  /// Sends `request` once and returns the answer, whatever its status. Errors: IOError "curl:
  /// <cause>" when no complete answer arrived (refused, reset, timed out, truncated);
  /// ResourceExhausted when the body passed max_response_bytes.
  Result<HttpResponse> Perform(const HttpRequest& request);

 private:
  struct Pool;
  HttpClientOptions options_;
  std::string sigv4_;
  std::unique_ptr<Pool> pool_;
};

}  // namespace higgins::s3
