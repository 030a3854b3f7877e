#pragma once

#include <string>
#include <string_view>

#include "higgins/result.h"

namespace higgins::client_internal {

/// A subscription id: 16 bytes (a UUID v4) on the wire, UUID text in the public API
/// ("xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lower-case hex). Sans-I/O value type.
class SubscriptionId {
 public:
  static constexpr size_t kBytes = 16;

  /// Reads the text form: 8-4-4-4-12 hex digits with hyphens, or 32 bare hex digits, either
  /// case. Errors: InvalidArgument quoting the text and the expected form.
  static Result<SubscriptionId> Parse(std::string_view text);
  /// Takes the wire form. Errors: Corruption unless `bytes` is 16 bytes long.
  static Result<SubscriptionId> FromWire(std::string_view bytes);

  /// The 16 raw bytes, for requests.
  const std::string& bytes() const { return bytes_; }
  /// "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lower-case.
  std::string ToString() const;

  friend bool operator==(const SubscriptionId&, const SubscriptionId&) = default;

 private:
  explicit SubscriptionId(std::string bytes) : bytes_(std::move(bytes)) {}

  std::string bytes_;  // always kBytes long
};

}  // namespace higgins::client_internal
