#pragma once

// Helpers shared by the message codecs; not part of the library's interface.

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "higgins/status.h"
#include "kafka/api.h"
#include "kafka/versions.h"
#include "kafka/wire.h"

namespace higgins::kafka::internal {

/// OK if the codec knows `version` of `key` (kCodecVersions), else NotSupported naming the
/// range it knows.
inline Status CheckVersion(ApiKey key, int16_t version) {
  if (CodecKnows(key, version)) return Status::OK();
  std::string message =
      std::string(ApiKeyName(key)) + " v" + std::to_string(version) + " is not supported";
  if (const auto range = CodecVersions(key)) {
    message +=
        " (v" + std::to_string(range->min_version) + "-" + std::to_string(range->max_version) + ")";
  }
  return Status::NotSupported(std::move(message));
}

/// Encoding a version the codec does not know is a programmer error: the server answers only
/// the versions it decoded.
inline void AssertVersion(ApiKey key, int16_t version) {
  assert(CodecKnows(key, version));
  (void)key;
  (void)version;
}

/// ARRAY of INT32 (broker ids, partition indexes). Empty on failure (see reader.status()).
inline std::vector<int32_t> ReadInt32Array(Reader& reader) {
  std::vector<int32_t> values(static_cast<size_t>(reader.ArrayLength(sizeof(int32_t))));
  for (int32_t& v : values) v = reader.Int32();
  return values;
}

inline void WriteInt32Array(const std::vector<int32_t>& values, Writer& writer) {
  writer.ArrayLength(values.size());
  for (int32_t v : values) writer.Int32(v);
}

/// An owned copy of a decoded NULLABLE_STRING (null stays null), for response structs.
inline std::optional<std::string> OwnedOrNull(std::optional<std::string_view> s) {
  if (!s) return std::nullopt;
  return std::string(*s);
}

}  // namespace higgins::kafka::internal
