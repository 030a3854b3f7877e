// Percent-encoding, query canonicalisation, endpoint parsing and bucket URLs (sans-I/O).
#include "s3/s3_address.h"

#include <algorithm>
#include <charconv>

namespace higgins::s3 {
namespace {

bool IsUnreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == '~';
}

bool IsLowerAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool IsHostChar(char c) {
  return IsLowerAlnum(c) || (c >= 'A' && c <= 'Z') || c == '-' || c == '.' || c == '_';
}

bool IsIpv6Char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' ||
         c == '.';
}

bool StartsWithIgnoringCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != prefix[i]) return false;
  }
  return true;
}

Status BadEndpoint(std::string_view endpoint, std::string_view why) {
  return Status::InvalidArgument("s3 endpoint '" + std::string(endpoint) +
                                 "': " + std::string(why));
}

/// What is wrong with "host[:port]" (IPv6 in brackets), for BadEndpoint; empty when nothing is.
std::string_view AuthorityProblem(std::string_view authority) {
  std::string_view host = authority;
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos || close == 1) {
      return "an IPv6 host needs [address]";
    }
    if (!std::all_of(authority.begin() + 1, authority.begin() + close, IsIpv6Char)) {
      return "the IPv6 address has characters other than hex digits and ':'";
    }
    host = authority.substr(0, close + 1);
    std::string_view rest = authority.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return "unexpected text after the host";
      port = rest.substr(1);
      if (port.empty()) return "empty port";
    }
  } else {
    const size_t colon = authority.find(':');
    if (colon != std::string_view::npos) {
      host = authority.substr(0, colon);
      port = authority.substr(colon + 1);
      if (port.empty()) return "empty port";
    }
    if (host.empty()) return "no host";
    if (!std::all_of(host.begin(), host.end(), IsHostChar)) {
      return "the host has characters other than letters, digits, '-', '.'";
    }
  }
  if (!port.empty()) {
    unsigned value = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535) {
      return "the port is not a number from 1 to 65535";
    }
  }
  return {};
}

}  // namespace

std::string UriEncode(std::string_view text, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size() * 3);
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (IsUnreserved(c) || (keep_slash && c == '/')) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
  return out;
}

std::string CanonicalQuery(QueryParams params) {
  for (auto& [name, value] : params) {
    name = UriEncode(name, false);
    value = UriEncode(value, false);
  }
  std::sort(params.begin(), params.end());
  std::string out;
  for (const auto& [name, value] : params) {
    if (!out.empty()) out.push_back('&');
    out += name;
    out.push_back('=');
    out += value;
  }
  return out;
}

Status CheckRegion(std::string_view region) {
  if (region.empty() || region.size() > 64 ||
      !std::all_of(region.begin(), region.end(),
                   [](char c) { return IsLowerAlnum(c) || c == '-'; })) {
    return Status::InvalidArgument("s3 region '" + std::string(region) +
                                   "' is not 1 to 64 of a-z, 0-9 and '-'");
  }
  return Status::OK();
}

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): a swap fails validation
Result<Endpoint> ParseEndpoint(std::string_view endpoint, std::string_view region) {
  if (endpoint.empty()) {
    HIGGINS_RETURN_IF_ERROR(CheckRegion(region));
    return Endpoint{true, "s3." + std::string(region) + ".amazonaws.com"};
  }
  Endpoint parsed;
  std::string_view rest;
  if (StartsWithIgnoringCase(endpoint, "https://")) {
    rest = endpoint.substr(8);
  } else if (StartsWithIgnoringCase(endpoint, "http://")) {
    parsed.https = false;
    rest = endpoint.substr(7);
  } else {
    return BadEndpoint(endpoint, "it does not start with http:// or https://");
  }
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  if (rest.find_first_of("/?#@") != std::string_view::npos) {
    return BadEndpoint(endpoint, "only scheme://host[:port] is supported (no path, query or user)");
  }
  if (const std::string_view why = AuthorityProblem(rest); !why.empty()) {
    return BadEndpoint(endpoint, why);
  }
  parsed.authority = std::string(rest);
  return parsed;
}

Result<BucketAddress> BucketAddress::Make(Endpoint endpoint, std::string bucket, bool path_style) {
  const std::string scheme = endpoint.https ? "https://" : "http://";
  if (path_style) {
    const bool ok = !bucket.empty() && bucket.size() <= 255 &&
                    std::all_of(bucket.begin(), bucket.end(), [](char c) { return IsHostChar(c); });
    if (!ok) {
      return Status::InvalidArgument("s3 bucket '" + bucket +
                                     "' is not 1 to 255 of letters, digits, '.', '_' and '-'");
    }
    return BucketAddress(scheme + endpoint.authority, "/" + bucket);
  }
  const bool ok = bucket.size() >= 3 && bucket.size() <= 63 && IsLowerAlnum(bucket.front()) &&
                  IsLowerAlnum(bucket.back()) &&
                  std::all_of(bucket.begin(), bucket.end(),
                              [](char c) { return IsLowerAlnum(c) || c == '-' || c == '.'; });
  if (!ok) {
    return Status::InvalidArgument(
        "s3 bucket '" + bucket +
        "' cannot be a host name (virtual-hosted style needs 3 to 63 of a-z, 0-9, '.' and '-'; "
        "set path_style for other names)");
  }
  if (!endpoint.authority.empty() && endpoint.authority.front() == '[') {
    return Status::InvalidArgument(
        "s3 virtual-hosted style needs a host name endpoint, not an IPv6 address");
  }
  return BucketAddress(scheme + bucket + "." + endpoint.authority, "");
}

std::string BucketAddress::ObjectUrl(std::string_view key, const QueryParams& query) const {
  std::string url = base_ + bucket_path_ + "/" + UriEncode(key, true);
  if (!query.empty()) url += "?" + CanonicalQuery(query);
  return url;
}

std::string BucketAddress::BucketUrl(const QueryParams& query) const {
  std::string url = base_ + (bucket_path_.empty() ? "/" : bucket_path_);
  if (!query.empty()) url += "?" + CanonicalQuery(query);
  return url;
}

}  // namespace higgins::s3
