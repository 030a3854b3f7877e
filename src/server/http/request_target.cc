#include "server/http/request_target.h"

#include "arrow/utf8.h"

namespace higgins::server::http {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Result<std::string> Decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      const int hi = i + 2 < text.size() ? HexValue(text[i + 1]) : -1;
      const int lo = i + 2 < text.size() ? HexValue(text[i + 2]) : -1;
      if (i + 2 >= text.size() || hi < 0 || lo < 0) {
        return Status::InvalidArgument("bad percent escape in the request target at '" +
                                       std::string(text.substr(i, 3)) + "'");
      }
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  if (out.find('\0') != std::string::npos) {
    return Status::InvalidArgument("the request target holds a NUL byte (%00)");
  }
  if (!arrow::IsValidUtf8(out)) {
    return Status::InvalidArgument("the request target's escapes decode to invalid UTF-8");
  }
  return out;
}

}  // namespace

std::optional<std::string_view> RequestTarget::Param(std::string_view name) const {
  for (const auto& [key, value] : query) {
    if (key == name) return std::string_view(value);
  }
  return std::nullopt;
}

Result<RequestTarget> ParseTarget(std::string_view target) {
  if (target.empty() || target[0] != '/') {
    return Status::InvalidArgument("the request target must start with '/'");
  }
  RequestTarget out;
  std::string_view path = target;
  std::string_view query;
  if (const size_t q = target.find('?'); q != std::string_view::npos) {
    path = target.substr(0, q);
    query = target.substr(q + 1);
  }
  if (const size_t hash = query.find('#'); hash != std::string_view::npos) {
    query = query.substr(0, hash);
  }
  size_t start = 1;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    if (end > start) {
      HIGGINS_ASSIGN_OR_RETURN(std::string segment, Decode(path.substr(start, end - start), false));
      out.segments.push_back(std::move(segment));
    }
    start = end + 1;
  }
  start = 0;
  while (start < query.size()) {
    size_t end = query.find('&', start);
    if (end == std::string_view::npos) end = query.size();
    const std::string_view pair = query.substr(start, end - start);
    if (!pair.empty()) {
      const size_t eq = pair.find('=');
      HIGGINS_ASSIGN_OR_RETURN(std::string key, Decode(pair.substr(0, eq), true));
      std::string value;
      if (eq != std::string_view::npos) {
        HIGGINS_ASSIGN_OR_RETURN(value, Decode(pair.substr(eq + 1), true));
      }
      out.query.emplace_back(std::move(key), std::move(value));
    }
    start = end + 1;
  }
  return out;
}

}  // namespace higgins::server::http
