#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace higgins::s3 {

/// The SHA-256 of `bytes` as 64 lower-case hex digits (OpenSSL's EVP digest), the value of the
/// x-amz-content-sha256 header.
std::string Sha256Hex(std::span<const uint8_t> bytes);

}  // namespace higgins::s3
