// Reading a stream's `window = { type, interval, slide }`.

#include <limits>

#include "config/toml_internal.h"

namespace higgins::config::internal {
namespace {

/// Blanks (spaces and tabs) may stand around the tokens of a size, as of a type tag
/// (arrow::ParseTypeTag): " 5 ", "10 s".
bool IsBlank(char c) {
  return c == ' ' || c == '\t';
}

std::string_view TrimBlanks(std::string_view text) {
  while (!text.empty() && IsBlank(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsBlank(text.back())) text.remove_suffix(1);
  return text;
}

/// The leading digits of `*text` as a number, removed from it; nullopt when there are none or
/// they exceed uint64 (all digits are removed then too).
std::optional<uint64_t> TakeDigits(std::string_view* text) {
  size_t digits = 0;
  bool overflow = false;
  uint64_t value = 0;
  for (; digits < text->size() && (*text)[digits] >= '0' && (*text)[digits] <= '9'; ++digits) {
    const auto digit = static_cast<uint64_t>((*text)[digits] - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) overflow = true;
    value = value * 10 + digit;
  }
  text->remove_prefix(digits);
  if (digits == 0 || overflow) return std::nullopt;
  return value;
}

constexpr uint64_t kMaxSize = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());

/// A count: a positive integer, or a string of digits with optional blanks around them; nullopt
/// when it is not one. At most 2^63-1: the topography writes counts back as TOML integers, which
/// are signed.
std::optional<uint64_t> CountValue(const toml::node& node) {
  if (const auto* number = node.as_integer()) {
    if (number->get() > 0) return static_cast<uint64_t>(number->get());
    return std::nullopt;
  }
  const auto* text = node.as_string();
  if (text == nullptr) return std::nullopt;
  std::string_view rest = TrimBlanks(text->get());
  const std::optional<uint64_t> value = TakeDigits(&rest);
  if (!value || !rest.empty() || *value == 0 || *value > kMaxSize) return std::nullopt;
  return value;
}

/// What DurationValue found.
struct Duration {
  enum class Kind { kOk, kNotADuration, kTooLong };
  Kind kind = Kind::kNotADuration;
  uint64_t ms = 0;
};

/// A duration string ("500ms", "10s", "5m", "1h", blanks allowed around the number and the
/// unit) in milliseconds. kTooLong beyond 2^63-1 ms: window bounds are int64 ms timestamps.
Duration DurationValue(const toml::node& node) {
  const auto* text = node.as_string();
  if (text == nullptr) return {};
  std::string_view rest = TrimBlanks(text->get());
  const bool has_digits = !rest.empty() && rest.front() >= '0' && rest.front() <= '9';
  const std::optional<uint64_t> amount = TakeDigits(&rest);
  const std::string_view unit = TrimBlanks(rest);
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
  if (!has_digits || scale == 0 || (amount && *amount == 0)) return {};
  if (!amount || *amount > kMaxSize / scale) return {Duration::Kind::kTooLong, 0};
  return {Duration::Kind::kOk, *amount * scale};
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
  const Duration duration = DurationValue(node);
  if (duration.kind == Duration::Kind::kNotADuration) {
    problems->Add(node, where,
                  "window '" + std::string(what) +
                      "' must be a positive duration such as \"500ms\", \"10s\", \"5m\" or "
                      "\"1h\"" +
                      Got(node));
  } else if (duration.kind == Duration::Kind::kTooLong) {
    problems->Add(node, where,
                  "window '" + std::string(what) +
                      "' must be at most 9223372036854775807ms (2^63 - 1 ms, about 292 million "
                      "years)" +
                      Got(node));
  }
  if (duration.kind != Duration::Kind::kOk) return std::nullopt;
  return duration.ms;
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
