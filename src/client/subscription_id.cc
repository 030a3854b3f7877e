#include "client/subscription_id.h"

#include <utility>

namespace higgins::client_internal {

namespace {

constexpr char kHex[] = "0123456789abcdef";
// Where the hyphens of the text form go: after bytes 4, 6, 8 and 10.
constexpr bool HyphenBefore(size_t byte) {
  return byte == 4 || byte == 6 || byte == 8 || byte == 10;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Result<SubscriptionId> SubscriptionId::Parse(std::string_view text) {
  const bool hyphenated = text.size() == 2 * kBytes + 4;
  auto invalid = [&] {
    return Status::InvalidArgument(
        "'" + std::string(text.substr(0, 64)) + (text.size() > 64 ? "...'" : "'") +
        " is not a subscription id: expected a UUID (8-4-4-4-12 hex digits, or 32 hex digits)");
  };
  if (!hyphenated && text.size() != 2 * kBytes) return invalid();
  std::string bytes;
  bytes.reserve(kBytes);
  size_t pos = 0;
  for (size_t byte = 0; byte < kBytes; ++byte) {
    if (hyphenated && HyphenBefore(byte) && text[pos++] != '-') return invalid();
    const int high = HexValue(text[pos]);
    const int low = HexValue(text[pos + 1]);
    if (high < 0 || low < 0) return invalid();
    bytes.push_back(static_cast<char>(high << 4 | low));
    pos += 2;
  }
  return SubscriptionId(std::move(bytes));
}

Result<SubscriptionId> SubscriptionId::FromWire(std::string_view bytes) {
  if (bytes.size() != kBytes) {
    return Status::Corruption("subscription id of " + std::to_string(bytes.size()) +
                              " bytes, expected " + std::to_string(kBytes));
  }
  return SubscriptionId(std::string(bytes));
}

std::string SubscriptionId::ToString() const {
  std::string out;
  out.reserve(2 * kBytes + 4);
  for (size_t byte = 0; byte < kBytes; ++byte) {
    if (HyphenBefore(byte)) out += '-';
    const auto value = static_cast<unsigned char>(bytes_[byte]);
    out += kHex[value >> 4];
    out += kHex[value & 15];
  }
  return out;
}

}  // namespace higgins::client_internal
