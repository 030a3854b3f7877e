#pragma once

// "Did you mean ...?" for error messages: the candidate nearest to a mistyped word. Pure.

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

namespace higgins {

/// The edit distance between `a` and `b` (optimal string alignment): the single-byte insertions,
/// deletions, substitutions and swaps of two adjacent bytes needed to turn one into the other,
/// no byte edited twice.
size_t EditDistance(std::string_view a, std::string_view b);

/// The candidate nearest to `word` by EditDistance, when that distance is at most
/// `max_distance` and smaller than the word's length (so a short word is not "corrected" into
/// an unrelated one). Ties go to the first candidate. nullopt when none is that near, or when
/// `word` is one of the candidates.
std::optional<std::string_view> NearestWord(std::string_view word,
                                            std::span<const std::string_view> candidates,
                                            size_t max_distance = 2);

}  // namespace higgins
