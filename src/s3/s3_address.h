#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "higgins/result.h"

namespace higgins::s3 {

/// Query parameters by name and value, unencoded ("uploads" with an empty value is "uploads=").
using QueryParams = std::vector<std::pair<std::string, std::string>>;

/// Percent-encodes `text` byte by byte as SigV4 canonical requests want: the RFC 3986 unreserved
/// characters (A-Z a-z 0-9 - _ . ~) stay, '/' stays when `keep_slash`, every other byte becomes
/// %XX with upper-case hex (UTF-8 is encoded per byte).
std::string UriEncode(std::string_view text, bool keep_slash);

/// The query string exactly as SigV4 canonicalises it: each name and value UriEncoded (slashes
/// too), every pair written "name=value" even when the value is empty, sorted by encoded name
/// and then value, joined with '&'. Empty for no parameters. libcurl 7.88 signs the query as it
/// is sent, so the client sends this form.
std::string CanonicalQuery(QueryParams params);

/// The scheme and authority of an endpoint.
struct Endpoint {
  bool https = true;
  std::string authority;  // "host" or "host:port", as in the URL and the Host header
  friend bool operator==(const Endpoint&, const Endpoint&) = default;
};

/// Parses "http[s]://host[:port][/]" (host: a DNS name, an IPv4 address or a bracketed IPv6
/// address; port 1..65535). Empty `endpoint` gives https://s3.<region>.amazonaws.com.
/// Errors: InvalidArgument naming what is wrong (never echoing more than the endpoint).
Result<Endpoint> ParseEndpoint(std::string_view endpoint, std::string_view region);

/// InvalidArgument unless `region` is 1..64 of [a-z0-9-] (it is part of the signing scope).
Status CheckRegion(std::string_view region);

/// The URLs of one bucket: path style (scheme://authority/bucket/key) or virtual-hosted style
/// (scheme://bucket.authority/key). Immutable; thread-safe.
class BucketAddress {
 public:
  /// Errors: InvalidArgument when the bucket name is empty or unusable in that style (path
  /// style: 1..255 of [A-Za-z0-9._-]; virtual-hosted: 3..63 of [a-z0-9.-], starting and ending
  /// with a letter or digit).
  static Result<BucketAddress> Make(Endpoint endpoint, std::string bucket, bool path_style);

  /// The URL of object `key` (encoded with UriEncode, slashes kept) with `query`.
  std::string ObjectUrl(std::string_view key, const QueryParams& query) const;
  /// The URL of the bucket itself (listings) with `query`.
  std::string BucketUrl(const QueryParams& query) const;

 private:
  BucketAddress(std::string base, std::string bucket_path)
      : base_(std::move(base)), bucket_path_(std::move(bucket_path)) {}
  std::string base_;         // "http://127.0.0.1:4568" or "https://bucket.s3.amazonaws.com"
  std::string bucket_path_;  // "/bucket" in path style, "" in virtual-hosted style
};

}  // namespace higgins::s3
