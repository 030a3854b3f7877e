#include "arrow/json/csv_tokenizer.h"

#include <cstring>

namespace higgins::arrow::json {
namespace {

constexpr size_t kUnset = static_cast<size_t>(-1);

/// The length of the line break at `pos`, or 0: LF, CRLF, or a CR that is the input's last byte
/// (a lone CR elsewhere is data).
size_t LineBreakAt(std::string_view bytes, size_t pos) {
  if (pos >= bytes.size()) return 0;
  if (bytes[pos] == '\n') return 1;
  if (bytes[pos] != '\r') return 0;
  if (pos + 1 == bytes.size()) return 1;
  return bytes[pos + 1] == '\n' ? 2 : 0;
}

}  // namespace

CsvTokenizer::CsvTokenizer(std::string_view bytes, char delimiter)
    : bytes_(bytes), delimiter_(delimiter) {
  if (bytes_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
}

Status CsvTokenizer::ReadQuoted(size_t* pos, CsvField* field) {
  const size_t start = *pos + 1;  // after the opening quote
  size_t scan = start;
  bool escaped = false;
  while (true) {
    const void* quote = std::memchr(bytes_.data() + scan, '"', bytes_.size() - scan);
    if (quote == nullptr) return Status::InvalidArgument("unterminated quoted field");
    const size_t at = static_cast<size_t>(static_cast<const char*>(quote) - bytes_.data());
    if (at + 1 < bytes_.size() && bytes_[at + 1] == '"') {
      escaped = true;
      scan = at + 2;
      continue;
    }
    *pos = at + 1;
    field->quoted = true;
    const std::string_view raw = bytes_.substr(start, at - start);
    if (!escaped) {
      field->text = raw;
      return Status::OK();
    }
    const size_t offset = scratch_.size();
    for (size_t i = 0; i < raw.size(); ++i) {
      scratch_.push_back(raw[i]);
      if (raw[i] == '"') ++i;  // the second quote of ""
    }
    scratch_fields_.back() = {offset, scratch_.size() - offset};
    return Status::OK();
  }
}

Result<bool> CsvTokenizer::Next(std::vector<CsvField>* fields) {
  fields->clear();
  scratch_.clear();
  scratch_fields_.clear();
  // Skip empty lines.
  while (const size_t line_break = LineBreakAt(bytes_, pos_)) pos_ += line_break;
  if (pos_ >= bytes_.size()) return false;
  while (true) {
    CsvField field;
    scratch_fields_.emplace_back(kUnset, 0);
    if (pos_ < bytes_.size() && bytes_[pos_] == '"') {
      HIGGINS_RETURN_IF_ERROR(ReadQuoted(&pos_, &field));
    } else {
      const size_t start = pos_;
      while (pos_ < bytes_.size()) {
        const char c = bytes_[pos_];
        if (c == delimiter_ || LineBreakAt(bytes_, pos_) != 0) break;
        if (c == '"') return Status::InvalidArgument("quote inside an unquoted field");
        ++pos_;
      }
      field.text = bytes_.substr(start, pos_ - start);
    }
    fields->push_back(field);
    if (pos_ >= bytes_.size()) break;
    const char c = bytes_[pos_];
    if (c == delimiter_) {
      ++pos_;
      if (pos_ == bytes_.size()) {  // a trailing delimiter ends with one more empty field
        fields->push_back(CsvField{});
        scratch_fields_.emplace_back(kUnset, 0);
        break;
      }
      continue;
    }
    if (const size_t line_break = LineBreakAt(bytes_, pos_)) {
      pos_ += line_break;
      break;
    }
    return Status::InvalidArgument("unexpected text after a closing quote");
  }
  for (size_t i = 0; i < fields->size(); ++i) {
    if (scratch_fields_[i].first == kUnset) continue;
    (*fields)[i].text =
        std::string_view(scratch_).substr(scratch_fields_[i].first, scratch_fields_[i].second);
  }
  return true;
}

}  // namespace higgins::arrow::json
