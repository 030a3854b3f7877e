#include "udf/guest_text.h"

#include "arrow/utf8.h"

namespace higgins::udf {
namespace {

// Length of the UTF-8 sequence a lead byte announces; 1 for bytes that cannot start one (they
// are then replaced on their own).
size_t SequenceLength(unsigned char lead) {
  if (lead < 0xC0) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}

}  // namespace

std::string SanitizeGuestText(std::string_view bytes, bool truncated) {
  std::string out;
  out.reserve(bytes.size() + 3);
  size_t i = 0;
  while (i < bytes.size()) {
    const auto lead = static_cast<unsigned char>(bytes[i]);
    if (lead < 0x80) {
      out += (lead < 0x20 || lead == 0x7F) ? ' ' : static_cast<char>(lead);
      ++i;
      continue;
    }
    const size_t n = SequenceLength(lead);
    if (n > 1 && i + n <= bytes.size() && arrow::IsValidUtf8(bytes.substr(i, n))) {
      out.append(bytes.substr(i, n));
      i += n;
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    }
  }
  const size_t first = out.find_first_not_of(' ');
  if (first == std::string::npos) {
    out.clear();
  } else {
    out.erase(out.find_last_not_of(' ') + 1);
    out.erase(0, first);
  }
  if (truncated) out += "...";
  return out;
}

}  // namespace higgins::udf
