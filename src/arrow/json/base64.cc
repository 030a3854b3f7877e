#include "arrow/json/base64.h"

#include <array>
#include <cstdint>

namespace higgins::arrow::json {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr uint8_t kInvalid = 0xFF;

constexpr std::array<uint8_t, 256> MakeDecodeTable() {
  std::array<uint8_t, 256> table{};
  for (auto& entry : table) entry = kInvalid;
  for (uint8_t i = 0; i < 64; ++i) table[static_cast<uint8_t>(kAlphabet[i])] = i;
  return table;
}

constexpr std::array<uint8_t, 256> kDecode = MakeDecodeTable();

}  // namespace

void Base64Encode(std::string_view bytes, std::string* out) {
  const auto* in = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t n = bytes.size();
  out->reserve(out->size() + (n + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    const uint32_t group = (uint32_t{in[i]} << 16) | (uint32_t{in[i + 1]} << 8) | in[i + 2];
    out->push_back(kAlphabet[(group >> 18) & 63]);
    out->push_back(kAlphabet[(group >> 12) & 63]);
    out->push_back(kAlphabet[(group >> 6) & 63]);
    out->push_back(kAlphabet[group & 63]);
  }
  if (n - i == 1) {
    const uint32_t group = uint32_t{in[i]} << 16;
    out->push_back(kAlphabet[(group >> 18) & 63]);
    out->push_back(kAlphabet[(group >> 12) & 63]);
    out->append("==");
  } else if (n - i == 2) {
    const uint32_t group = (uint32_t{in[i]} << 16) | (uint32_t{in[i + 1]} << 8);
    out->push_back(kAlphabet[(group >> 18) & 63]);
    out->push_back(kAlphabet[(group >> 12) & 63]);
    out->push_back(kAlphabet[(group >> 6) & 63]);
    out->push_back('=');
  }
}

bool Base64Decode(std::string_view text, std::string* out) {
  out->clear();
  if (text.size() % 4 != 0) return false;
  size_t padding = 0;
  if (!text.empty() && text.back() == '=') padding = text[text.size() - 2] == '=' ? 2 : 1;
  out->reserve(text.size() / 4 * 3);
  const size_t full_end = text.size() - (padding == 0 ? 0 : 4);
  const auto* in = reinterpret_cast<const uint8_t*>(text.data());
  for (size_t i = 0; i < full_end; i += 4) {
    const uint8_t a = kDecode[in[i]], b = kDecode[in[i + 1]], c = kDecode[in[i + 2]],
                  d = kDecode[in[i + 3]];
    if (((a | b | c | d) & 0xC0) != 0) return false;  // kInvalid has the top bits set
    const uint32_t group = (uint32_t{a} << 18) | (uint32_t{b} << 12) | (uint32_t{c} << 6) | d;
    out->push_back(static_cast<char>(group >> 16));
    out->push_back(static_cast<char>((group >> 8) & 0xFF));
    out->push_back(static_cast<char>(group & 0xFF));
  }
  if (padding == 0) return true;
  const size_t i = full_end;
  const uint8_t a = kDecode[in[i]], b = kDecode[in[i + 1]];
  if (a == kInvalid || b == kInvalid) return false;
  if (padding == 2) {
    if ((b & 0x0F) != 0) return false;  // unused low bits must be zero
    out->push_back(static_cast<char>((a << 2) | (b >> 4)));
    return true;
  }
  const uint8_t c = kDecode[in[i + 2]];
  if (c == kInvalid || (c & 0x03) != 0) return false;
  out->push_back(static_cast<char>((a << 2) | (b >> 4)));
  out->push_back(static_cast<char>(((b & 0x0F) << 4) | (c >> 2)));
  return true;
}

}  // namespace higgins::arrow::json
