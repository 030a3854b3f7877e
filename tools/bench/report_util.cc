#include "report_util.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace higgins::bench {

double QuantileUs(const std::vector<uint64_t>& sorted_ns, double q) {
  if (sorted_ns.empty()) return 0;
  size_t i = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted_ns.size())));
  i = std::clamp<size_t>(i, 1, sorted_ns.size()) - 1;
  return static_cast<double>(sorted_ns[i]) / 1000.0;
}

std::string JsonEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char u[8];
      std::snprintf(u, sizeof(u), "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += u;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace higgins::bench
