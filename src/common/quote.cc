#include "common/quote.h"

namespace higgins {
namespace {

bool IsUtf8Continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace

std::string Quote(std::string_view text) {
  if (text.size() <= kQuotePrefixBytes) return "'" + std::string(text) + "'";
  // Back up over at most 3 continuation bytes, to the start of the character that was cut.
  size_t cut = kQuotePrefixBytes;
  for (int i = 0; i < 3 && cut > 0 && IsUtf8Continuation(text[cut]); ++i) --cut;
  return "'" + std::string(text.substr(0, cut)) + "'…(" + std::to_string(text.size()) + " bytes)";
}

}  // namespace higgins
