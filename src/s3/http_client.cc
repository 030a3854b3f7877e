// HttpClient: libcurl easy handles, pooled, with libcurl's SigV4 signing.
#include "s3/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <mutex>

namespace higgins::s3 {
namespace {

constexpr size_t kMaxIdleHandles = 16;

void InitCurlOnce() {
  static std::once_flag once;
  // curl_global_init is not thread-safe in libcurl 7.88: call_once serialises the first use.
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

/// Collects the response of one transfer.
struct Sink {
  CURL* handle = nullptr;
  uint64_t max_bytes = 0;
  uint64_t expected_bytes = 0;
  bool reserved = false;
  bool overflow = false;
  BufferBuilder body;
  std::vector<std::pair<std::string, std::string>> headers;
};

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* sink = static_cast<Sink*>(user);
  const size_t n = size * count;
  if (sink->body.size() + n > sink->max_bytes) {
    sink->overflow = true;
    return 0;  // aborts the transfer with CURLE_WRITE_ERROR
  }
  if (!sink->reserved) {
    sink->reserved = true;
    long status = 0;
    curl_easy_getinfo(sink->handle, CURLINFO_RESPONSE_CODE, &status);
    if (status >= 200 && status < 300 && sink->expected_bytes > n) {
      sink->body.Reserve(std::min(sink->expected_bytes, sink->max_bytes));
    }
  }
  sink->body.Append(data, n);
  return n;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' ||
                           text.back() == '\n')) {
    text.remove_suffix(1);
  }
  return text;
}

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* sink = static_cast<Sink*>(user);
  const std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) {
    sink->headers.clear();  // a new status line: an interim answer (100 Continue) ended
    return line.size();
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return line.size();
  std::string name(Trim(line.substr(0, colon)));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; });
  sink->headers.emplace_back(std::move(name), std::string(Trim(line.substr(colon + 1))));
  return line.size();
}

void SetMethod(CURL* handle, const HttpRequest& request) {
  if (request.method == "GET") {
    curl_easy_setopt(handle, CURLOPT_HTTPGET, 1L);
  } else if (request.method == "HEAD") {
    curl_easy_setopt(handle, CURLOPT_NOBODY, 1L);
  } else if (request.method == "PUT" || request.method == "POST") {
    // The body goes as POSTFIELDS under the custom method: no copy, no rewind on a retry, and no
    // "Expect: 100-continue" round trip for bodies under 1 MiB.
    static const char kEmpty[] = "";
    const char* data =
        request.body.empty() ? kEmpty : reinterpret_cast<const char*>(request.body.data());
    curl_easy_setopt(handle, CURLOPT_POSTFIELDS, data);
    curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
    curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  } else {
    curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }
}

}  // namespace

std::string HttpResponse::Header(std::string_view lower_name) const {
  for (const auto& [name, value] : headers) {
    if (name == lower_name) return value;
  }
  return {};
}

struct HttpClient::Pool {
  std::mutex mu;
  std::vector<CURL*> idle;

  ~Pool() {
    for (CURL* handle : idle) curl_easy_cleanup(handle);
  }
  CURL* Acquire() {
    {
      std::lock_guard lock(mu);
      if (!idle.empty()) {
        CURL* handle = idle.back();
        idle.pop_back();
        return handle;
      }
    }
    return curl_easy_init();
  }
  void Release(CURL* handle) {
    curl_easy_reset(handle);  // keeps the handle's open connections for the next request
    std::lock_guard lock(mu);
    if (idle.size() < kMaxIdleHandles) {
      idle.push_back(handle);
      return;
    }
    curl_easy_cleanup(handle);
  }
};

HttpClient::HttpClient(HttpClientOptions options)
    : options_(std::move(options)),
      sigv4_("aws:amz:" + options_.region + ":s3"),
      pool_(std::make_unique<Pool>()) {
  InitCurlOnce();
}

HttpClient::~HttpClient() = default;

Result<HttpResponse> HttpClient::Perform(const HttpRequest& request) {
  CURL* handle = pool_->Acquire();
  if (handle == nullptr) return Status::IOError("curl: cannot create a handle (out of memory)");
  std::unique_ptr<curl_slist, SlistDeleter> headers;
  for (const std::string& header : request.headers) {
    curl_slist* appended = curl_slist_append(headers.get(), header.c_str());
    if (appended == nullptr) {
      pool_->Release(handle);
      return Status::IOError("curl: out of memory for the request headers");
    }
    (void)headers.release();
    headers.reset(appended);
  }
  Sink sink;
  sink.handle = handle;
  sink.max_bytes = request.max_response_bytes;
  sink.expected_bytes = request.expected_response_bytes;
  char error[CURL_ERROR_SIZE] = {0};

  curl_easy_setopt(handle, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(handle, CURLOPT_PATH_AS_IS, 1L);  // keys may hold "." and ".." segments
  curl_easy_setopt(handle, CURLOPT_USERAGENT, "higgins-s3");
  curl_easy_setopt(handle, CURLOPT_AWS_SIGV4, sigv4_.c_str());
  curl_easy_setopt(handle, CURLOPT_USERNAME, options_.access_key_id.c_str());
  curl_easy_setopt(handle, CURLOPT_PASSWORD, options_.secret_access_key.c_str());
  curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(options_.connect_timeout.count()));
  curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.request_timeout.count()));
  curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(handle, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(handle, CURLOPT_HEADERDATA, &sink);
  SetMethod(handle, request);

  const CURLcode rc = curl_easy_perform(handle);
  long status = 0;
  curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
  pool_->Release(handle);
  if (sink.overflow) {
    return Status::ResourceExhausted("the response body is larger than " +
                                     std::to_string(request.max_response_bytes) + " bytes");
  }
  if (rc != CURLE_OK) {
    return Status::IOError(std::string("curl: ") +
                           (error[0] != 0 ? error : curl_easy_strerror(rc)));
  }
  HttpResponse response;
  response.status = status;
  response.body = sink.body.Finish();
  response.headers = std::move(sink.headers);
  return response;
}

}  // namespace higgins::s3
