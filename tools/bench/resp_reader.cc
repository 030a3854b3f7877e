#include "resp_reader.h"

#include <charconv>

namespace higgins::bench {
namespace {

constexpr int kMaxDepth = 16;

std::optional<int64_t> ParseInt(std::string_view s) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

void RespReader::Consume(std::string_view bytes) {
  if (read_pos_ > 0 && read_pos_ >= buffer_.size() - read_pos_) {
    buffer_.erase(0, read_pos_);
    read_pos_ = 0;
  }
  buffer_.append(bytes);
}

Result<std::optional<RespReply>> RespReader::Next() {
  if (invalid_) return Status::Corruption("the reply stream is not RESP2");
  if (read_pos_ == buffer_.size()) return std::optional<RespReply>();
  size_t pos = read_pos_;
  RespReply reply;
  switch (Value(&pos, &reply, 0)) {
    case Parse::kIncomplete: return std::optional<RespReply>();
    case Parse::kInvalid:
      invalid_ = true;
      return Status::Corruption("the reply stream is not RESP2");
    case Parse::kComplete: break;
  }
  read_pos_ = pos;
  return std::optional<RespReply>(std::move(reply));
}

std::optional<std::pair<std::string_view, size_t>> RespReader::Line(size_t pos) const {
  size_t end = buffer_.find("\r\n", pos);
  if (end == std::string::npos) return std::nullopt;
  return std::make_pair(std::string_view(buffer_).substr(pos, end - pos), end + 2);
}

RespReader::Parse RespReader::Value(size_t* pos, RespReply* reply, int depth) const {
  if (depth > kMaxDepth) return Parse::kInvalid;
  auto line = Line(*pos);
  if (!line) return Parse::kIncomplete;
  auto [text, next] = *line;
  if (text.empty()) return Parse::kInvalid;
  const char kind = text[0];
  text.remove_prefix(1);
  if (reply != nullptr) reply->kind = kind;
  switch (kind) {
    case '+':
    case '-':
      if (reply != nullptr) reply->text = std::string(text);
      *pos = next;
      return Parse::kComplete;
    case ':': {
      auto v = ParseInt(text);
      if (!v) return Parse::kInvalid;
      if (reply != nullptr) reply->number = *v;
      *pos = next;
      return Parse::kComplete;
    }
    case '$': {
      auto length = ParseInt(text);
      if (!length || *length < -1) return Parse::kInvalid;
      if (*length == -1) {
        *pos = next;
        return Parse::kComplete;
      }
      const size_t end = next + static_cast<size_t>(*length);
      if (buffer_.size() < end + 2) return Parse::kIncomplete;
      if (buffer_.compare(end, 2, "\r\n") != 0) return Parse::kInvalid;
      if (reply != nullptr) reply->text = buffer_.substr(next, static_cast<size_t>(*length));
      *pos = end + 2;
      return Parse::kComplete;
    }
    case '*': {
      auto count = ParseInt(text);
      if (!count || *count < -1) return Parse::kInvalid;
      if (reply != nullptr) reply->number = *count;
      size_t p = next;
      for (int64_t i = 0; i < *count; ++i) {
        Parse r = Value(&p, nullptr, depth + 1);
        if (r != Parse::kComplete) return r;
      }
      *pos = p;
      return Parse::kComplete;
    }
    default: return Parse::kInvalid;
  }
}

}  // namespace higgins::bench
