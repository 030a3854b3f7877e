// S3ObjectStore: PutObject, GetObject (ranged), ListObjectsV2, DeleteObject and the retry loop.
#include "s3/s3_object_store.h"

#include <algorithm>
#include <charconv>
#include <thread>

#include "s3/backoff.h"
#include "s3/s3_xml.h"
#include "s3/sha256.h"

namespace higgins::s3 {
namespace {

constexpr uint64_t kMaxErrorBodyBytes = 64u << 10;
constexpr uint64_t kMaxListBodyBytes = 16u << 20;  // 1000 keys of 1024 bytes, escaped, and more
constexpr size_t kMaxServerText = 200;
constexpr int kMaxListPages = 1'000'000;

/// Server-provided text made safe for a message: control characters blanked, length bounded.
std::string Printable(std::string_view text) {
  std::string out(text.substr(0, kMaxServerText));
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
  }
  if (text.size() > kMaxServerText) out += "...";
  return out;
}

bool IsSuccess(long status) {
  return status >= 200 && status < 300;
}

/// A 404 about the object, not the bucket: a missing bucket is a configuration error.
bool IsMissingObject(const HttpResponse& response) {
  return response.status == 404 && ParseError(response.body.view()).code != "NoSuchBucket";
}

std::string Attempts(int n) {
  return std::to_string(n) + (n == 1 ? " attempt" : " attempts");
}

}  // namespace

std::string S3ObjectStore::Describe(const HttpResponse& response) {
  const S3Error error = ParseError(response.body.view());
  std::string text = "HTTP " + std::to_string(response.status);
  if (!error.code.empty()) text += " " + Printable(error.code);
  if (!error.message.empty()) text += ": " + Printable(error.message);
  return text;
}

S3ObjectStore::S3ObjectStore(S3Options options, BucketAddress address)
    : options_(std::move(options)),
      address_(std::move(address)),
      http_(HttpClientOptions{options_.region, options_.access_key_id, options_.secret_access_key,
                              options_.connect_timeout, options_.request_timeout}),
      rng_(std::random_device{}()) {}

HttpRequest S3ObjectStore::MakeRequest(std::string method, std::string url,
                                       std::span<const uint8_t> body,
                                       std::string_view content_type) const {
  HttpRequest request;
  request.method = std::move(method);
  request.url = std::move(url);
  request.body = body;
  request.headers.push_back("x-amz-content-sha256: " + Sha256Hex(body));
  if (!content_type.empty())
    request.headers.push_back("Content-Type: " + std::string(content_type));
  request.max_response_bytes = kMaxErrorBodyBytes;
  return request;
}

Result<HttpResponse> S3ObjectStore::Call(const std::string& what, const HttpRequest& request,
                                         const TransientCheck& transient) {
  std::string cause;
  int attempt = 1;
  for (;; ++attempt) {
    auto response = http_.Perform(request);
    if (response.ok()) {
      const HttpResponse& answer = *response;
      const bool transient_status = IsTransientHttpStatus(
          answer.status,
          answer.status == 400 ? ParseError(answer.body.view()).code : std::string());
      if (transient_status) {
        cause = Describe(answer);
      } else if (!(transient && IsSuccess(answer.status) && transient(answer, &cause))) {
        return response;
      }
    } else if (response.status().code() == StatusCode::kIOError) {
      cause = response.status().message();
    } else {
      return Status(response.status().code(), "s3 " + what + ": " + response.status().message());
    }
    if (attempt >= options_.max_attempts) break;
    std::chrono::milliseconds delay;
    {
      std::lock_guard lock(rng_mu_);
      delay = FullJitterBackoff(options_.backoff_base, options_.backoff_max, attempt, rng_);
    }
    std::this_thread::sleep_for(delay);
  }
  return Status::IOError("s3 " + what + ": " + cause + " after " + Attempts(attempt));
}

Status S3ObjectStore::Refused(const std::string& what, const HttpResponse& response) {
  const std::string message = "s3 " + what + ": " + Describe(response);
  if (IsMissingObject(response)) return Status::NotFound(message);
  if (response.status == 416) return Status::OutOfRange(message);
  return Status::InvalidArgument(message);
}

Status S3ObjectStore::Redact(Status status) const {
  const std::string& secret = options_.secret_access_key;
  if (status.ok() || secret.empty() || status.message().find(secret) == std::string::npos) {
    return status;
  }
  std::string message = status.message();
  for (size_t at = message.find(secret); at != std::string::npos; at = message.find(secret, at)) {
    message.replace(at, secret.size(), "<secret>");
  }
  return Status(status.code(), std::move(message));
}

Status S3ObjectStore::Put(const std::string& key, std::span<const uint8_t> data) {
  if (key.empty()) return Status::InvalidArgument("s3 PUT: empty key");
  if (!data.empty() && data.size() >= options_.multipart_threshold) {
    return Redact(PutMultipart(key, data));
  }
  return Redact(PutSingle(key, data));
}

Status S3ObjectStore::PutSingle(const std::string& key, std::span<const uint8_t> data) {
  const std::string what = "PUT " + key;
  HIGGINS_ASSIGN_OR_RETURN(HttpResponse response,
                           Call(what, MakeRequest("PUT", address_.ObjectUrl(key, {}), data,
                                                  "application/octet-stream")));
  if (!IsSuccess(response.status)) return Refused(what, response);
  return Status::OK();
}

Result<Buffer> S3ObjectStore::Get(const std::string& key, uint64_t offset, uint64_t length) {
  const std::string what = "GET " + key;
  if (key.empty()) return Status::InvalidArgument("s3 GET: empty key");
  if (length > UINT64_MAX - offset) {
    return Status::OutOfRange("s3 " + what + ": the range overflows 64 bits");
  }
  if (length == 0) return GetEmptyRange(key, offset);
  HttpRequest request = MakeRequest("GET", address_.ObjectUrl(key, {}), {}, "");
  request.headers.push_back("Range: bytes=" + std::to_string(offset) + "-" +
                            std::to_string(offset + length - 1));
  request.max_response_bytes = std::max<uint64_t>(length, kMaxErrorBodyBytes);
  request.expected_response_bytes = length;
  auto called = Call(what, request);
  if (!called.ok()) return Redact(called.status());
  HttpResponse response = *std::move(called);
  const std::string range = std::to_string(offset) + "+" + std::to_string(length);
  if (response.status == 206 || (response.status == 200 && offset == 0)) {
    // A range reaching past the end comes back shorter (206), or whole when the server ignores
    // Range on a small object (200).
    if (response.body.size() == length) return std::move(response.body);
    if (response.body.size() < length) {
      return Status::OutOfRange("s3 " + what + ": bytes " + range +
                                " are not inside the object (the server sent " +
                                std::to_string(response.body.size()) + ")");
    }
    return Status::IOError("s3 " + what + ": asked for bytes " + range + ", the server sent " +
                           std::to_string(response.body.size()));
  }
  if (response.status == 200) {
    return Status::IOError("s3 " + what + ": the server ignored the Range header");
  }
  if (IsSuccess(response.status)) {
    return Status::IOError("s3 " + what + ": unexpected HTTP " + std::to_string(response.status));
  }
  return Redact(Refused(what, response));
}

Result<Buffer> S3ObjectStore::GetEmptyRange(const std::string& key, uint64_t offset) {
  // S3 has no empty byte range: a HEAD gives the size that decides between OK and OutOfRange.
  const std::string what = "GET " + key;
  auto called = Call(what, MakeRequest("HEAD", address_.ObjectUrl(key, {}), {}, ""));
  if (!called.ok()) return Redact(called.status());
  const HttpResponse& response = *called;
  if (response.status == 404) return Status::NotFound("s3 " + what + ": HTTP 404 (no such object)");
  if (!IsSuccess(response.status)) return Redact(Refused(what, response));
  const std::string length = response.Header("content-length");
  uint64_t size = 0;
  auto [end, ec] = std::from_chars(length.data(), length.data() + length.size(), size);
  if (length.empty() || ec != std::errc() || end != length.data() + length.size()) {
    return Status::IOError("s3 " + what + ": HEAD answered without a Content-Length");
  }
  if (offset > size) {
    return Status::OutOfRange("s3 " + what + ": offset " + std::to_string(offset) +
                              " is past the end of its " + std::to_string(size) + " bytes");
  }
  return Buffer();
}

Result<std::vector<ObjectInfo>> S3ObjectStore::List(const std::string& prefix) {
  const std::string what = "LIST " + prefix;
  std::vector<ObjectInfo> listed;
  std::string token;
  for (int page = 0;; ++page) {
    if (page == kMaxListPages) {
      return Status::Corruption("s3 " + what + ": more than " + std::to_string(kMaxListPages) +
                                " pages");
    }
    QueryParams query = {{"list-type", "2"}, {"max-keys", std::to_string(options_.list_page_size)}};
    if (!prefix.empty()) query.emplace_back("prefix", prefix);
    if (!token.empty()) query.emplace_back("continuation-token", token);
    HttpRequest request = MakeRequest("GET", address_.BucketUrl(query), {}, "");
    request.max_response_bytes = kMaxListBodyBytes;
    auto called = Call(what, request);
    if (!called.ok()) return Redact(called.status());
    if (!IsSuccess(called->status)) return Redact(Refused(what, *called));
    auto parsed = ParseListObjectsV2(called->body.view());
    if (!parsed.ok()) return Redact(parsed.status().WithContext("s3 " + what));
    ListPage& result = *parsed;
    for (ObjectInfo& info : result.objects) listed.push_back(std::move(info));
    if (!result.truncated) break;
    if (result.next_token == token) {
      return Status::Corruption("s3 " + what + ": the server repeated a continuation token");
    }
    token = std::move(result.next_token);
  }
  std::sort(listed.begin(), listed.end(),
            [](const ObjectInfo& a, const ObjectInfo& b) { return a.key < b.key; });
  return listed;
}

Status S3ObjectStore::Delete(const std::string& key) {
  const std::string what = "DELETE " + key;
  if (key.empty()) return Status::InvalidArgument("s3 DELETE: empty key");
  auto called = Call(what, MakeRequest("DELETE", address_.ObjectUrl(key, {}), {}, ""));
  if (!called.ok()) return Redact(called.status());
  if (IsSuccess(called->status) || IsMissingObject(*called)) return Status::OK();
  return Redact(Refused(what, *called));
}

}  // namespace higgins::s3
