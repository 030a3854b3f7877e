#pragma once

#include <cstddef>
#include <string_view>

#include "higgins/status.h"

namespace higgins::config {

/// Explicit limits on configuration text (docs/configuration.md, "Limits"), checked before the
/// text reaches toml++, whose parser and table destructors recurse once per level of key nesting
/// and overflow the stack on keys such as `[a.a.a.…]` with 150,000 segments.

/// Largest configuration accepted, in bytes (1 MiB). Also keeps every schema's IPC metadata
/// (names, type tags, field metadata) far below the IPC reader's 16 MiB metadata limit.
inline constexpr size_t kMaxConfigBytes = size_t{1} << 20;

/// Most segments in the full path of a key: those of its table header (`[schema.s]` is 2), of
/// the keys of the inline tables around it, and of the key itself (`a.b = 1` is 2). Arrays do
/// not count (toml++ itself limits arrays and inline tables to 256 levels).
inline constexpr int kMaxKeyDepth = 64;

/// Checks `toml_text` against the limits. Errors: ResourceExhausted "configuration is N bytes,
/// more than the limit of 1048576 (1 MiB)"; InvalidArgument "line L: key nested more than 64
/// levels deep ..." (or "table header ...") for the first key or header past kMaxKeyDepth.
/// Dots inside quoted keys and strings ("...", '...', """...""", '''...''') and comments do not
/// count. Otherwise the text is not validated: whatever the scan cannot make sense of is left
/// for toml++ to report. Pure function; thread-safe.
[[nodiscard]] Status CheckTomlLimits(std::string_view toml_text);

/// The key-nesting check of CheckTomlLimits alone, without the size limit: for text Higgins
/// wrote itself (the serialized topography, which grows past 1 MiB with many uploads) but reads
/// back from disk, where it may have been damaged. Pure function; thread-safe.
[[nodiscard]] Status CheckTomlKeyDepth(std::string_view toml_text);

}  // namespace higgins::config
