#pragma once

#include <functional>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "s3/http_client.h"
#include "s3/object_store.h"
#include "s3/s3_address.h"
#include "s3/s3_client.h"

namespace higgins::s3 {

/// The ObjectStore over S3's REST API (internal: MakeS3ObjectStore validates the options and
/// builds it). Every request goes through Call, which retries transient failures. Thread-safe:
/// the only shared state is the HTTP client's handle pool and the jitter generator, each behind
/// its own mutex.
class S3ObjectStore final : public ObjectStore {
 public:
  S3ObjectStore(S3Options options, BucketAddress address);

  Status Put(const std::string& key, std::span<const uint8_t> data) override;
  Result<Buffer> Get(const std::string& key, uint64_t offset, uint64_t length) override;
  Result<std::vector<ObjectInfo>> List(const std::string& prefix) override;
  Status Delete(const std::string& key) override;
  Result<std::vector<MultipartUpload>> ListMultipartUploads(const std::string& prefix) override;
  Status AbortMultipartUpload(const std::string& key, const std::string& upload_id) override;

 private:
  /// Whether a 2xx answer is in fact a transient failure (CompleteMultipartUpload answers 200
  /// with an <Error> body when it fails late); sets `cause`.
  using TransientCheck = std::function<bool(const HttpResponse&, std::string* cause)>;

  /// Sends `request` up to max_attempts times, sleeping FullJitterBackoff between tries, while
  /// the answer is a transport error or transient (IsTransientHttpStatus, `transient`). Returns
  /// the first other answer, any status. `what` ("GET key") starts every message. Errors:
  /// IOError "s3 <what>: <last cause> after N attempts"; ResourceExhausted (not retried) when
  /// the answer is too large.
  Result<HttpResponse> Call(const std::string& what, const HttpRequest& request,
                            const TransientCheck& transient = nullptr);

  /// The Status for an answer that is final but not a success: NotFound for 404 (but
  /// InvalidArgument for 404 NoSuchBucket), OutOfRange for 416, InvalidArgument otherwise, with
  /// the S3 error code and message.
  static Status Refused(const std::string& what, const HttpResponse& response);

  /// "HTTP 503 SlowDown: Please reduce your request rate." (code and message from an <Error>
  /// body when there is one, control characters blanked, each cut at 200 bytes).
  static std::string Describe(const HttpResponse& response);

  /// Replaces any copy of the secret key in a message (a server could echo one) by "<secret>".
  Status Redact(Status status) const;

  /// A request with the signing headers every S3 call needs (payload hash, content type).
  HttpRequest MakeRequest(std::string method, std::string url, std::span<const uint8_t> body,
                          std::string_view content_type) const;

  Status PutSingle(const std::string& key, std::span<const uint8_t> data);
  Result<Buffer> GetEmptyRange(const std::string& key, uint64_t offset);

  // Multipart upload (s3_multipart.cc).
  Status PutMultipart(const std::string& key, std::span<const uint8_t> data);
  Result<std::string> CreateMultipartUpload(const std::string& key);
  Result<std::string> UploadPart(const std::string& key, const std::string& upload_id,
                                 int part_number, int parts, std::span<const uint8_t> bytes);
  Status CompleteMultipartUpload(const std::string& key, const std::string& upload_id,
                                 const std::vector<std::string>& etags);
  Status Abort(const std::string& key, const std::string& upload_id);

  const S3Options options_;
  const BucketAddress address_;
  HttpClient http_;
  std::mutex rng_mu_;
  std::mt19937_64 rng_;
};

}  // namespace higgins::s3
