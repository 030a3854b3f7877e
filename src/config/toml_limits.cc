#include "config/toml_limits.h"

#include <string>
#include <vector>

namespace higgins::config {
namespace {

/// A scan of TOML text that tracks just enough structure to know, at every '.', whether it
/// separates key segments and how deep the key's full path is. Linear in the text; no recursion.
class KeyDepthScanner {
 public:
  explicit KeyDepthScanner(std::string_view text) : text_(text) {}

  Status Run() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
        if (mode_ == Mode::kHeader || frames_.empty()) mode_ = Mode::kKeyStart;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        HIGGINS_RETURN_IF_ERROR(Visit(c));
      }
    }
    return Status::OK();
  }

 private:
  /// kKeyStart: where a key (or, at the top level, a table header) may begin; kKey: inside a
  /// key, before its '='; kHeader: inside `[...]` or `[[...]]`; kValue: after '=' or inside an
  /// array.
  enum class Mode { kKeyStart, kKey, kHeader, kValue };

  /// An open inline table or array, with the path depth of the key whose value it is.
  struct Frame {
    bool table;
    int depth;
  };

  /// One significant character (not white space or a comment).
  Status Visit(char c) {
    switch (mode_) {
      case Mode::kKeyStart:
        if (c == '[' && frames_.empty()) {
          pos_ += text_.substr(pos_, 2) == "[[" ? 2 : 1;
          mode_ = Mode::kHeader;
          base_ = 0;
          segments_ = 0;
          return AddSegment();
        }
        if (c == '}') return Close();
        mode_ = Mode::kKey;
        base_ = frames_.empty() ? header_depth_ : frames_.back().depth;
        segments_ = 0;
        HIGGINS_RETURN_IF_ERROR(AddSegment());
        return c == '"' || c == '\'' ? SkipString() : Advance();
      case Mode::kHeader:
        if (c == ']') {
          header_depth_ = segments_;
          mode_ = Mode::kValue;  // the rest of the line: `]` of `[[...]]`, a comment
          return Advance();
        }
        [[fallthrough]];
      case Mode::kKey:
        if (c == '.') {
          HIGGINS_RETURN_IF_ERROR(AddSegment());
          return Advance();
        }
        if (c == '"' || c == '\'') return SkipString();
        if (mode_ == Mode::kKey && c == '=') {
          value_depth_ = base_ + segments_;
          mode_ = Mode::kValue;
        } else if (mode_ == Mode::kKey && c == '}') {
          return Close();
        }
        return Advance();
      case Mode::kValue: return VisitValue(c);
    }
    return Advance();
  }

  Status VisitValue(char c) {
    const bool in_array = !frames_.empty() && !frames_.back().table;
    const int depth = in_array ? frames_.back().depth : value_depth_;
    switch (c) {
      case '"':
      case '\'': return SkipString();
      case '[': frames_.push_back(Frame{false, depth}); break;
      case '{':
        frames_.push_back(Frame{true, depth});
        mode_ = Mode::kKeyStart;
        break;
      case ']':
      case '}': return Close();
      case ',':
        if (!frames_.empty() && frames_.back().table) mode_ = Mode::kKeyStart;
        break;
      default: break;
    }
    return Advance();
  }

  /// A closing bracket: back to the value that contained the array or inline table.
  Status Close() {
    if (!frames_.empty()) frames_.pop_back();
    mode_ = Mode::kValue;
    return Advance();
  }

  Status Advance() {
    ++pos_;
    return Status::OK();
  }

  Status AddSegment() {
    ++segments_;
    if (base_ + segments_ <= kMaxKeyDepth) return Status::OK();
    return Status::InvalidArgument(
        "line " + std::to_string(line_) + ": " + (mode_ == Mode::kHeader ? "table header" : "key") +
        " nested more than " + std::to_string(kMaxKeyDepth) +
        " levels deep (counting the segments of the table header, of enclosing inline-table "
        "keys and of the dotted key)");
  }

  /// Skips a string or quoted key starting at pos_ ('"', '\'', '"""' or "'''"), counting lines.
  /// An unterminated one-line string ends at the line break, for toml++ to report.
  Status SkipString() {
    const char quote = text_[pos_];
    const bool basic = quote == '"';
    const std::string_view triple = basic ? std::string_view("\"\"\"") : "'''";
    const bool multi_line = text_.substr(pos_, 3) == triple;
    pos_ += multi_line ? 3 : 1;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        if (!multi_line) return Status::OK();
        ++line_;
      } else if (basic && c == '\\') {
        if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') ++line_;
        ++pos_;
      } else if (!multi_line && c == quote) {
        ++pos_;
        return Status::OK();
      } else if (multi_line && text_.substr(pos_, 3) == triple) {
        pos_ += 3;
        // Up to two more quotes belong to the content: `"""a""""` is `a"`.
        for (int extra = 0; extra < 2 && pos_ < text_.size() && text_[pos_] == quote; ++extra) {
          ++pos_;
        }
        return Status::OK();
      }
      ++pos_;
    }
    return Status::OK();
  }

  std::string_view text_;
  size_t pos_ = 0;
  int64_t line_ = 1;
  Mode mode_ = Mode::kKeyStart;
  std::vector<Frame> frames_;
  int header_depth_ = 0;  // segments of the current table header
  int base_ = 0;          // path depth of what contains the key or header being read
  int segments_ = 0;      // segments of that key or header so far
  int value_depth_ = 0;   // path depth of the key whose value is being read
};

}  // namespace

Status CheckTomlLimits(std::string_view toml_text) {
  if (toml_text.size() > kMaxConfigBytes) {
    return Status::ResourceExhausted("configuration is " + std::to_string(toml_text.size()) +
                                     " bytes, more than the limit of " +
                                     std::to_string(kMaxConfigBytes) + " (1 MiB)");
  }
  return CheckTomlKeyDepth(toml_text);
}

Status CheckTomlKeyDepth(std::string_view toml_text) {
  return KeyDepthScanner(toml_text).Run();
}

}  // namespace higgins::config
