#include "config/toml_internal.h"

#include <algorithm>
#include <exception>

#include "config/toml_limits.h"

namespace higgins::config::internal {

std::vector<Entry> InFileOrder(const toml::table& table) {
  std::vector<Entry> entries;
  entries.reserve(table.size());
  for (const auto& [key, node] : table) {
    entries.push_back(Entry{key.str(), &node, node.source().begin});
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.position.line != b.position.line ? a.position.line < b.position.line
                                              : a.position.column < b.position.column;
  });
  return entries;
}

void Problems::Add(const toml::node& node, std::string_view where, std::string_view problem) {
  const int64_t line = node.source().begin.line;
  std::string text;
  if (line > 0) text = "line " + std::to_string(line) + ": ";
  text += where;
  text += ": ";
  text += problem;
  lines_.push_back(Line{line, std::move(text)});
}

Status Problems::ToStatus(bool by_line) const {
  std::vector<const Line*> order;
  order.reserve(lines_.size());
  for (const Line& line : lines_) order.push_back(&line);
  if (by_line) {
    std::stable_sort(order.begin(), order.end(),
                     [](const Line* a, const Line* b) { return a->line < b->line; });
  }
  std::string message;
  for (const Line* line : order) {
    if (!message.empty()) message.push_back('\n');
    message += line->text;
  }
  return Status::InvalidArgument(std::move(message));
}

std::string Got(const toml::node& node) {
  if (const auto* text = node.as_string()) return " (got '" + text->get() + "')";
  if (const auto* number = node.as_integer()) return " (got " + std::to_string(number->get()) + ")";
  return "";
}

Result<toml::table> ParseToml(std::string_view text, TextOrigin origin) {
  HIGGINS_RETURN_IF_ERROR(origin == TextOrigin::kUser ? CheckTomlLimits(text)
                                                      : CheckTomlKeyDepth(text));
  // toml++ reports errors by exception; none may leave this function.
  try {
    return toml::parse(text);
  } catch (const toml::parse_error& error) {
    const toml::source_position begin = error.source().begin;
    return Status::InvalidArgument("TOML syntax error at line " + std::to_string(begin.line) +
                                   ", column " + std::to_string(begin.column) + ": " +
                                   std::string(error.description()));
  } catch (const std::exception& error) {
    return Status::Internal(std::string("reading the configuration: ") + error.what());
  }
}

}  // namespace higgins::config::internal
