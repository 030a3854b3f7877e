// Reading a stream's `window = { type, interval, slide }`.

#include <limits>

#include "config/toml_internal.h"

namespace higgins::config::internal {
namespace {

/// A count: a positive integer, or a string of digits; nullopt when it is not one.
std::optional<uint64_t> CountValue(const toml::node& node) {
  if (const auto* number = node.as_integer()) {
    if (number->get() > 0) return static_cast<uint64_t>(number->get());
    return std::nullopt;
  }
  const auto* text = node.as_string();
  if (text == nullptr || text->get().empty()) return std::nullopt;
  uint64_t value = 0;
  for (const char c : text->get()) {
    if (c < '0' || c > '9') return std::nullopt;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  // At most 2^63-1: the topography writes counts back as TOML integers, which are signed.
  if (value == 0 || value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return std::nullopt;
  }
  return value;
}

/// A duration string ("500ms", "10s", "5m", "1h") in milliseconds; nullopt when it is not one.
std::optional<uint64_t> DurationValue(const toml::node& node) {
  const auto* text = node.as_string();
  if (text == nullptr) return std::nullopt;
  std::string_view value = text->get();
  size_t digits = 0;
  while (digits < value.size() && value[digits] >= '0' && value[digits] <= '9') ++digits;
  const std::string_view unit = value.substr(digits);
  uint64_t scale = 0;
  if (unit == "ms") {
    scale = 1;
  } else if (unit == "s") {
    scale = 1000;
  } else if (unit == "m") {
    scale = 60'000;
  } else if (unit == "h") {
    scale = 3'600'000;
  }
  if (digits == 0 || scale == 0) return std::nullopt;
  uint64_t amount = 0;
  for (size_t i = 0; i < digits; ++i) {
    const uint64_t digit = static_cast<uint64_t>(value[i] - '0');
    if (amount > (std::numeric_limits<uint64_t>::max() - digit) / 10) return std::nullopt;
    amount = amount * 10 + digit;
  }
  if (amount == 0 || amount > std::numeric_limits<uint64_t>::max() / scale) return std::nullopt;
  return amount * scale;
}

std::optional<uint64_t> WindowSize(WindowSpec::Type type, std::string_view what,
                                   const toml::node& node, const std::string& where,
                                   Problems* problems) {
  if (type == WindowSpec::Type::kCount) {
    std::optional<uint64_t> count = CountValue(node);
    if (!count) {
      problems->Add(node, where,
                    "window '" + std::string(what) +
                        "' must be a positive number of records (at most 9223372036854775807), as "
                        "an integer or a string of digits" +
                        Got(node));
    }
    return count;
  }
  std::optional<uint64_t> duration = DurationValue(node);
  if (!duration) {
    problems->Add(node, where,
                  "window '" + std::string(what) +
                      "' must be a positive duration such as \"500ms\", \"10s\", \"5m\" or "
                      "\"1h\"" +
                      Got(node));
  }
  return duration;
}

}  // namespace

std::optional<WindowSpec> ReadWindow(const toml::node& node, const std::string& where,
                                     Problems* problems) {
  const toml::table* table = node.as_table();
  if (table == nullptr) {
    problems->Add(node, where,
                  "'window' must be a table { type = \"count\" or \"time\", interval = ..., "
                  "slide = ... }");
    return std::nullopt;
  }
  const toml::node* type_node = nullptr;
  const toml::node* interval_node = nullptr;
  const toml::node* slide_node = nullptr;
  bool ok = true;
  for (const Entry& entry : InFileOrder(*table)) {
    if (entry.key == "type") {
      type_node = entry.node;
    } else if (entry.key == "interval") {
      interval_node = entry.node;
    } else if (entry.key == "slide") {
      slide_node = entry.node;
    } else {
      problems->Add(*entry.node, where,
                    "unknown key '" + std::string(entry.key) + "'" +
                        " in 'window' (it takes type, interval, slide)");
      ok = false;
    }
  }
  WindowSpec window;
  if (type_node == nullptr) {
    problems->Add(node, where, "'window' has no 'type' (\"count\" or \"time\")");
    return std::nullopt;
  }
  const auto* type = type_node->as_string();
  if (type != nullptr && type->get() == "count") {
    window.type = WindowSpec::Type::kCount;
  } else if (type != nullptr && type->get() == "time") {
    window.type = WindowSpec::Type::kTime;
  } else {
    problems->Add(*type_node, where,
                  "window 'type' must be \"count\" or \"time\"" + Got(*type_node));
    return std::nullopt;
  }
  if (interval_node == nullptr) {
    problems->Add(node, where, "'window' has no 'interval'");
    return std::nullopt;
  }
  std::optional<uint64_t> interval =
      WindowSize(window.type, "interval", *interval_node, where, problems);
  std::optional<uint64_t> slide;
  if (slide_node != nullptr) {
    slide = WindowSize(window.type, "slide", *slide_node, where, problems);
    if (!slide) ok = false;
  }
  if (!interval || !ok) return std::nullopt;
  window.interval = *interval;
  if (slide && *slide > *interval) {
    problems->Add(*slide_node, where, "window 'slide' must not exceed its 'interval'");
    return std::nullopt;
  }
  // slide == interval is the tumbling window, which is written slide == 0.
  window.slide = slide && *slide < *interval ? *slide : 0;
  return window;
}

}  // namespace higgins::config::internal
