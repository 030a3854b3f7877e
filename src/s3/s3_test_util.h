#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string_view>

#include "s3/object_store.h"

namespace higgins::s3 {

/// The bytes of `text` (which must outlive the span).
inline std::span<const uint8_t> Bytes(std::string_view text) {
  return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

/// For gtest's messages.
inline void PrintTo(const ObjectInfo& info, std::ostream* out) {
  *out << "{\"" << info.key << "\", " << info.size << "}";
}

}  // namespace higgins::s3
