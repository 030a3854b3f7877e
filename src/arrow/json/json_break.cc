#include "arrow/json/json_break.h"

#include <vector>

namespace higgins::arrow::json {

std::optional<JsonBreak> FindJsonBreak(std::string_view text) {
  std::vector<char> open;  // the closers expected, innermost last
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped byte cannot end the string
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '{': open.push_back('}'); break;
      case '[': open.push_back(']'); break;
      case '}':
      case ']':
        if (open.empty()) return JsonBreak{i, std::string("'") + c + "' closes nothing"};
        if (open.back() != c) {
          return JsonBreak{i, std::string("'") + c + "' where '" + open.back() + "' should close " +
                                  (open.back() == '}' ? "an object" : "an array")};
        }
        open.pop_back();
        break;
      default: break;
    }
  }
  if (in_string) return JsonBreak{text.size(), "the text ends inside a string"};
  if (!open.empty()) {
    return JsonBreak{text.size(), std::string("the text ends inside ") +
                                      (open.back() == '}' ? "an object" : "an array")};
  }
  return std::nullopt;
}

}  // namespace higgins::arrow::json
