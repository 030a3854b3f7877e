#include "arrow/json/csv_tokenizer.h"

#include <cstring>

namespace higgins::arrow::json {
namespace {

constexpr size_t kUnset = static_cast<size_t>(-1);

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
  while (pos_ < bytes_.size() && (bytes_[pos_] == '\n' || bytes_.substr(pos_, 2) == "\r\n")) {
    pos_ += bytes_[pos_] == '\n' ? 1 : 2;
  }
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
        if (c == delimiter_ || c == '\n' || (c == '\r' && bytes_.substr(pos_, 2) == "\r\n")) break;
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
    if (c == '\n') {
      ++pos_;
      break;
    }
    if (bytes_.substr(pos_, 2) == "\r\n") {
      pos_ += 2;
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
