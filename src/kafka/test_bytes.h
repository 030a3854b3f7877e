#pragma once

// Helpers for the kafka_test executable only.

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>

#include "higgins/status.h"
#include "kafka/wire.h"

namespace higgins::kafka::testing {

/// Bytes from hex digits; spaces, newlines and '|' (a field separator for readers) are ignored.
inline std::string Hex(std::string_view hex) {
  std::string out;
  int pending = -1;
  for (char c : hex) {
    if (c == ' ' || c == '\n' || c == '|') continue;
    const int nibble =
        std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::tolower(c) - 'a' + 10;
    if (pending < 0) {
      pending = nibble;
    } else {
      out.push_back(static_cast<char>(pending * 16 + nibble));
      pending = -1;
    }
  }
  EXPECT_EQ(pending, -1) << "odd number of hex digits";
  return out;
}

/// The hex of `bytes`, for readable failure messages.
inline std::string ToHex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    out.push_back(kDigits[static_cast<unsigned char>(c) >> 4]);
    out.push_back(kDigits[static_cast<unsigned char>(c) & 15]);
  }
  return out;
}

/// Runs `decode(Reader&)` (returning a Result) on every proper prefix of `bytes` and expects a
/// Corruption each time: a truncated message must be refused, never half-decoded.
template <typename Decode>
void ExpectEveryPrefixFails(std::string_view bytes, Decode decode) {
  for (size_t n = 0; n < bytes.size(); ++n) {
    Reader reader(bytes.substr(0, n));
    auto result = decode(reader);
    EXPECT_FALSE(result.ok()) << "prefix of " << n << " bytes decoded";
    if (!result.ok()) {
      EXPECT_EQ(result.status().code(), StatusCode::kCorruption)
          << n << ": " << result.status().ToString();
    }
  }
}

/// The bytes `encode(value, version, writer)` writes into an empty string.
template <typename T, typename Encode>
std::string EncodeToString(const T& value, int16_t version, Encode encode) {
  std::string out;
  Writer writer(&out);
  encode(value, version, writer);
  return out;
}

/// Encodes `value` at `version` and expects it to decode (`decode(Reader&, version)`) to
/// `expected` (`value` less the fields `version` lacks), and every prefix to fail.
template <typename T, typename Encode, typename Decode>
// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): a value and its expected decoding.
void ExpectRoundTrip(const T& value, const T& expected, int16_t version, Encode encode,
                     Decode decode) {
  const std::string bytes = EncodeToString(value, version, encode);
  Reader reader(bytes);
  auto back = decode(reader, version);
  ASSERT_TRUE(back.ok()) << "v" << version << ": " << back.status().ToString();
  EXPECT_EQ(*back, expected) << "v" << version;
  ExpectEveryPrefixFails(bytes, [&](Reader& r) { return decode(r, version); });
}

}  // namespace higgins::kafka::testing
