#include "common/nearest_word.h"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

namespace higgins {

size_t EditDistance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic programme: d[i][j] is the distance between the first i bytes of
  // a and the first j bytes of b; `before` is row i - 2 (for transpositions), `last` row i - 1.
  std::vector<size_t> before(b.size() + 1);
  std::vector<size_t> last(b.size() + 1);
  std::vector<size_t> row(b.size() + 1);
  std::iota(last.begin(), last.end(), size_t{0});
  for (size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t substitute = last[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({last[j] + 1, row[j - 1] + 1, substitute});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        row[j] = std::min(row[j], before[j - 2] + 1);
      }
    }
    std::swap(before, last);
    std::swap(last, row);
  }
  return last[b.size()];
}

std::optional<std::string_view> NearestWord(std::string_view word,
                                            std::span<const std::string_view> candidates,
                                            size_t max_distance) {
  std::optional<std::string_view> best;
  size_t best_distance = std::min(max_distance + 1, word.size());
  for (std::string_view candidate : candidates) {
    if (candidate == word) return std::nullopt;
    const size_t distance = EditDistance(word, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace higgins
