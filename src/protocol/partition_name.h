#pragma once

#include <string>
#include <string_view>

#include "higgins/limits.h"
#include "higgins/result.h"

namespace higgins::protocol {

/// The prototype sent partition keys as exactly 32 bytes: the key's bytes zero-padded on the
/// right. Higgins accepts that form and unpadded keys of any length (docs/protocol.md,
/// "Partition keys").
inline constexpr size_t kPaddedPartitionBytes = 32;
using higgins::kMaxPartitionKeyBytes;

/// A key on the wire to the raw key: trailing zero bytes are removed when the input is exactly
/// 32 bytes long; other lengths are taken as they are. Errors: InvalidArgument for an empty key,
/// a key over kMaxPartitionKeyBytes, or a key containing a zero byte (after unpadding).
Result<std::string> DecodePartitionName(std::string_view wire);

/// The prototype's form of a raw key: zero-padded to 32 bytes when shorter, unchanged otherwise.
std::string EncodePartitionName(std::string_view key);

}  // namespace higgins::protocol
