#pragma once

#include <compare>
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>

/// Strong types over a plain representation, so that two quantities that share a C++ type (a
/// stream id and a sequence are both 64-bit integers) cannot be passed for one another.
///
/// `NamedType<Tag, Rep>` wraps one `Rep`. Construction from a `Rep` is explicit, `value()` gives
/// it back, and there is no conversion between two NamedTypes of different tags, nor from a
/// NamedType to its `Rep`: `Open(StreamId, BucketId, Sequence)` cannot be called with its
/// arguments swapped (src/common/named_type_test.cc checks this at compile time). Comparison
/// and hashing follow `Rep`'s.
///
/// Ordinals, positions counted along a log (an offset, a sequence), opt in to arithmetic with a
/// tag that declares `static constexpr bool kOrdinal = true`: an ordinal plus or minus a count
/// (`uint64_t`) is an ordinal, and the difference of two ordinals is a count (`Rep`). Nothing
/// else is defined: adding two offsets means nothing. The arithmetic is `Rep`'s, unsigned
/// wrap-around included: callers that may go below zero check first, as they would with `Rep`.
namespace higgins {

template <typename Tag>
concept OrdinalTag = Tag::kOrdinal;

template <typename Tag, typename Rep>
class NamedType {
 public:
  using rep_type = Rep;

  constexpr NamedType() = default;
  constexpr explicit NamedType(Rep value) : value_(std::move(value)) {}

  /// The representation, by value for arithmetic types and by reference otherwise.
  constexpr std::conditional_t<std::is_arithmetic_v<Rep>, Rep, const Rep&> value() const {
    return value_;
  }

  friend constexpr bool operator==(const NamedType&, const NamedType&) = default;
  // Written out rather than defaulted: clang-tidy 14 takes the literal 0 of a defaulted <=>'s
  // synthesized comparison for a null pointer (modernize-use-nullptr).
  friend constexpr auto operator<=>(const NamedType& a, const NamedType& b) {
    return a.value_ <=> b.value_;
  }

  friend constexpr NamedType operator+(NamedType a, Rep count) requires OrdinalTag<Tag> {
    return NamedType(a.value_ + count);
  }
  friend constexpr NamedType operator-(NamedType a, Rep count) requires OrdinalTag<Tag> {
    return NamedType(a.value_ - count);
  }
  friend constexpr Rep operator-(NamedType a, NamedType b) requires OrdinalTag<Tag> {
    return a.value_ - b.value_;
  }
  constexpr NamedType& operator+=(Rep count) requires OrdinalTag<Tag> {
    value_ += count;
    return *this;
  }
  constexpr NamedType& operator++() requires OrdinalTag<Tag> {
    ++value_;
    return *this;
  }

  /// The representation in decimal (for messages).
  friend std::string ToString(const NamedType& v) requires std::is_integral_v<Rep> {
    return std::to_string(v.value_);
  }

  /// Prints the representation (for test failure messages and logs).
  friend std::ostream& operator<<(std::ostream& out, const NamedType& v) {
    if constexpr (sizeof(Rep) == 1 && std::is_integral_v<Rep>) {
      return out << static_cast<int>(v.value_);
    } else {
      return out << v.value_;
    }
  }

 private:
  Rep value_{};
};

}  // namespace higgins

template <typename Tag, typename Rep>
struct std::hash<higgins::NamedType<Tag, Rep>> {
  size_t operator()(const higgins::NamedType<Tag, Rep>& v) const noexcept {
    return std::hash<Rep>{}(v.value());
  }
};
