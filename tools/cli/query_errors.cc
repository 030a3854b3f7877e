#include "query_errors.h"

#include <array>
#include <cctype>
#include <string>
#include <utility>

namespace higgins::cli {
namespace {

struct Word {
  std::string_view protocol;
  std::string_view cli;
};

constexpr std::array<Word, 4> kWords = {{
    {"OFFSET", "--offset"},
    {"LATEST", "--latest"},
    {"RANGE", "--from"},
    {"TIMESTAMP", "--at-time"},
}};

bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

}  // namespace

Status InCliWords(Status status) {
  if (status.ok()) return status;
  const std::string& text = status.message();
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    if (!IsWordChar(text[i])) {
      out += text[i++];
      continue;
    }
    size_t end = i;
    while (end < text.size() && IsWordChar(text[end])) ++end;
    const std::string_view word(text.data() + i, end - i);
    std::string_view replacement = word;
    for (const Word& w : kWords) {
      if (word == w.protocol) replacement = w.cli;
    }
    out += replacement;
    i = end;
  }
  if (out == text) return status;
  return Status(status.code(), std::move(out));
}

bool FoundNothing(const Status& status, std::string_view stream) {
  if (status.code() != StatusCode::kNotFound) return false;
  const std::string prefix = "stream '" + std::string(stream) + "': ";
  return status.message().starts_with(prefix);
}

}  // namespace higgins::cli
