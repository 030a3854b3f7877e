#include "pushed_records.h"

#include <charconv>
#include <cstring>

namespace higgins::bench {

bool PushedRecords::Seek(std::string_view literal) {
  const std::string_view rest = text_.substr(at_);
  if (rest.starts_with(literal)) {
    at_ += literal.size();
    return true;
  }
  // glibc's memmem (two-way) rather than string_view::find, which would try a compare at every
  // '"' of the record.
  const void* found = memmem(rest.data(), rest.size(), literal.data(), literal.size());
  if (found == nullptr) return false;
  at_ = static_cast<size_t>(static_cast<const char*>(found) - text_.data()) + literal.size();
  return true;
}

bool PushedRecords::Int(int64_t* value) {
  const char* begin = text_.data() + at_;
  const auto [end, ec] = std::from_chars(begin, text_.data() + text_.size(), *value);
  if (ec != std::errc()) return false;
  at_ += static_cast<size_t>(end - begin);
  return true;
}

bool PushedRecords::UntilQuote(std::string_view* value) {
  const void* quote = memchr(text_.data() + at_, '"', text_.size() - at_);
  if (quote == nullptr) return false;
  const auto end = static_cast<size_t>(static_cast<const char*>(quote) - text_.data());
  *value = text_.substr(at_, end - at_);
  at_ = end + 1;
  return true;
}

bool PushedRecords::Next(PushedRecord* record) {
  if (done_) return false;
  if (at_ == 0) {
    array_ = text_.starts_with('[');
    if (array_ && !text_.ends_with(']')) return Fail();
  } else if (!array_) {
    done_ = true;  // one record per message without batch=true
    return false;
  } else if (at_ < text_.size() && text_[at_] == ',') {
    ++at_;  // between two records of an array
  }
  constexpr std::string_view kStream = "{\"stream\":\"";
  if (!Seek(kStream)) {
    // An array's end; a message that is not an array holds a record.
    if (!array_) return Fail();
    done_ = true;
    return false;
  }
  // The fields in the order the broker writes them: each is found where it is expected.
  std::string_view ignored;
  int64_t bucket = 0;
  const bool ok =
      UntilQuote(&ignored) && Seek(",\"partition_key\":\"") && UntilQuote(&record->key) &&
      Seek(",\"offset\":") && Int(&record->offset) && Seek(",\"bucket\":") && Int(&bucket) &&
      Seek(",\"commit_time\":\"") && UntilQuote(&ignored) && Seek(",\"record\":{\"id\":\"") &&
      UntilQuote(&ignored) && Seek(",\"seq\":") && Int(&record->seq) && Seek(",\"sent_us\":") &&
      Int(&record->sent_us) && Seek(",\"payload\":\"") && UntilQuote(&ignored) && Seek("}}");
  return ok || Fail();
}

bool PushedRecords::Fail() {
  malformed_ = true;
  done_ = true;
  return false;
}

}  // namespace higgins::bench
