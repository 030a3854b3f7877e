#pragma once

// Private to src/config: the option table of each storage kind, shared by the parser
// (configuration.cc), the topography's checks and diffs (topography_*.cc) and its TOML writer
// (topography_toml.cc). docs/configuration.md, "Storage", lists the same options for users.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "config/storage_decl.h"

namespace higgins::config::internal {

/// The TOML type of a storage option's value.
enum class OptionKind { kString, kInteger, kBool };

/// One option of a storage kind.
struct StorageOption {
  std::string_view key;
  OptionKind kind;
  /// Bounds of an integer option, inclusive; kNoMax when only TOML's integers (int64) bound it.
  uint64_t min = 0;
  uint64_t max = 0;
  /// Never shown to clients or written to logs (s3's access key id and secret).
  bool credential = false;
};
inline constexpr uint64_t kNoMax = static_cast<uint64_t>(INT64_MAX);

/// A set option's value: a string, a boolean or an integer (durations in milliseconds).
using OptionValue = std::variant<std::string, bool, uint64_t>;

/// "memory", "file", "s3" to the kind; nullopt for anything else.
std::optional<StorageKind> ParseStorageKind(std::string_view type);
/// The options a storage kind takes besides `type`, in the order docs/configuration.md lists them.
std::span<const StorageOption> StorageOptions(StorageKind kind);
/// The option `key` of `kind`, or nullptr.
const StorageOption* FindStorageOption(StorageKind kind, std::string_view key);
/// A declaration of `kind` with no option set.
StorageDecl EmptyStorageDecl(std::string name, StorageKind kind);

/// Sets option `option` (one of decl's kind) to `value`, which has the option's kind; the
/// caller has checked the range (IntegerInRange).
void SetStorageOption(const StorageOption& option, OptionValue value, StorageDecl* decl);
/// The options set in `decl`, in table order.
std::vector<std::pair<const StorageOption*, OptionValue>> SetStorageOptions(
    const StorageDecl& decl);

/// Whether `value` is within an integer option's bounds.
bool IntegerInRange(const StorageOption& option, int64_t value);
/// The rule of an integer option, "an integer of at least 1" or "an integer from 4096 to
/// 4294967296".
std::string IntegerRule(const StorageOption& option);
/// What is wrong with a declaration that did not come from the parser (an option out of range),
/// or "".
std::string StorageProblem(const StorageDecl& decl);

/// An option value as TOML: strings quoted, booleans and integers bare.
std::string OptionValueToToml(const OptionValue& value);

}  // namespace higgins::config::internal
