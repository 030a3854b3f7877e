#pragma once

#include <cassert>
#include <optional>
#include <utility>

#include "higgins/status.h"

namespace higgins {

/// Either a value of type T or a non-OK Status. Accessing the value of an error Result is a
/// programmer error (asserted); check ok() first or use the HIGGINS_ASSIGN_OR_RETURN macro.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Status status) : status_(std::move(status)) {  // NOLINT(google-explicit-constructor)
    assert(!status_.ok() && "Result constructed from an OK Status");
    if (status_.ok()) status_ = Status::Internal("Result constructed from an OK Status");
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const {
    static const Status kOkStatus;
    return ok() ? kOkStatus : status_;
  }

  T& value() & { assert(ok()); return *value_; }
  const T& value() const& { assert(ok()); return *value_; }
  T&& value() && { assert(ok()); return std::move(*value_); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  /// The value, or `fallback` when this is an error.
  T value_or(T fallback) const& { return ok() ? *value_ : std::move(fallback); }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace higgins

#define HIGGINS_ASSIGN_OR_RETURN_IMPL(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                                  \
  if (!tmp.ok()) return tmp.status();                  \
  lhs = std::move(tmp).value()

/// `HIGGINS_ASSIGN_OR_RETURN(auto x, MakeX());` declares x from the Result's value, or returns its
/// Status from the enclosing function.
#define HIGGINS_ASSIGN_OR_RETURN(lhs, rexpr) \
  HIGGINS_ASSIGN_OR_RETURN_IMPL(HIGGINS_CONCAT(higgins_result_, __LINE__), lhs, rexpr)
