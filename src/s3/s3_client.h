#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "higgins/result.h"
#include "s3/object_store.h"

namespace higgins::s3 {

/// Where and how to reach an S3 bucket (AWS or an S3-compatible server).
struct S3Options {
  /// "scheme://host[:port]" with scheme http or https, an optional trailing '/', no path, for
  /// example "http://127.0.0.1:4568" or "https://s3.eu-west-1.amazonaws.com". Empty means
  /// https://s3.<region>.amazonaws.com.
  std::string endpoint;
  /// The SigV4 signing region (letters, digits and '-').
  std::string region = "us-east-1";
  std::string bucket;
  /// Credentials, both required. Never logged, never put in a Status.
  std::string access_key_id;
  std::string secret_access_key;
  /// true: http://host/bucket/key; false (virtual-hosted style): http://bucket.host/key, which
  /// needs a bucket name that is a valid host name (lower-case letters, digits, '-', '.').
  bool path_style = true;
  /// Objects of at least this many bytes go up as a multipart upload; smaller ones as one PUT.
  /// At most 5 GiB (S3's limit for a single PUT).
  uint64_t multipart_threshold = 16ull << 20;
  /// Bytes per part of a multipart upload, 5 MiB (S3's minimum for every part but the last) to
  /// 5 GiB. Raised when an object would need more than 10,000 parts.
  uint64_t part_size = 8ull << 20;
  /// Objects per ListObjectsV2 page, 1 to 1000 (S3 returns at most 1000).
  uint32_t list_page_size = 1000;
  /// Tries per request (1 = no retry), at least 1. Transport errors, HTTP 5xx, 429 and S3's
  /// RequestTimeout are retried after a delay drawn uniformly from
  /// [0, min(backoff_max, backoff_base * 2^(try - 1))] ("full jitter").
  int max_attempts = 5;
  std::chrono::milliseconds backoff_base{100};
  std::chrono::milliseconds backoff_max{5000};
  /// Limits of one try: establishing the connection, and the whole request and response.
  std::chrono::milliseconds connect_timeout{2000};
  std::chrono::milliseconds request_timeout{30000};
};

/// An ObjectStore over the S3 REST API (PutObject, multipart upload, ranged GetObject,
/// ListObjectsV2, DeleteObject), signed with SigV4 by libcurl. The store is thread-safe and
/// reuses connections. Errors: InvalidArgument when an option is out of its range (empty bucket,
/// missing credentials, an endpoint that does not parse, a bucket that is not a host name with
/// path_style = false); the message names the option but never a credential.
Result<std::unique_ptr<ObjectStore>> MakeS3ObjectStore(S3Options options);

}  // namespace higgins::s3
