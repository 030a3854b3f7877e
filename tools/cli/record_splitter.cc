#include "record_splitter.h"

#include <algorithm>
#include <charconv>

namespace higgins::cli {

RecordSplitter::RecordSplitter(SplitMode mode, SplitLimits limits)
    : mode_(mode),
      max_records_(std::max<uint64_t>(1, limits.max_records)),
      max_bytes_(limits.max_bytes) {}

void RecordSplitter::Append(std::string_view bytes) {
  buffer_.append(bytes);
}

void RecordSplitter::Finish() {
  finished_ = true;
}

// Scans from scanned_ and stops at the first line end where a chunk is full (cut_), or, for CSV,
// after the header line (taken out of buffer_ at once).
void RecordSplitter::Scan() {
  while (!cut_ && scanned_ < buffer_.size()) {
    const char c = buffer_[scanned_++];
    if (mode_ == SplitMode::kCsv) {
      if (c == '"') {
        in_string_ = !in_string_;  // "" inside quotes toggles twice
        in_value_ = true;
      } else if (in_string_) {
        continue;
      } else if (c == '\n') {
        EndLine();
      } else if (c != '\r') {
        in_value_ = true;
      }
      continue;
    }
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        StartValue();
        in_string_ = true;
        break;
      case '{':
      case '[':
        StartValue();
        ++depth_;
        break;
      case '}':
      case ']':
        if (depth_ > 0 && --depth_ == 0) in_value_ = false;
        break;
      case ' ':
      case '\t':
      case '\r':
        if (depth_ == 0) in_value_ = false;
        break;
      case '\n':
        if (depth_ == 0) {
          in_value_ = false;
          EndLine();
        }
        break;
      default: StartValue();
    }
  }
}

void RecordSplitter::StartValue() {
  if (depth_ == 0 && !in_value_) {
    ++records_;
    in_value_ = true;
  }
}

void RecordSplitter::EndLine() {
  if (mode_ == SplitMode::kCsv) {
    if (!in_value_) return;  // completely empty lines are not records
    in_value_ = false;
    if (!header_) {
      header_ = buffer_.substr(0, scanned_);
      buffer_.erase(0, scanned_);
      consumed_ += scanned_;
      scanned_ = 0;
      return;
    }
    ++records_;
  }
  line_end_ = scanned_;
  records_to_line_end_ = records_;
  if (records_ > 0 && (records_ >= max_records_ || scanned_ >= max_bytes_)) cut_ = scanned_;
}

// `end` is a record boundary of buffer_ at or before line_end_ (or buffer_'s end at Finish),
// and `records` the records before it.
Chunk RecordSplitter::Cut(size_t end, uint64_t records) {
  Chunk chunk;
  if (header_) chunk.text = *header_;
  chunk.text.append(buffer_, 0, end);
  chunk.first_byte = consumed_;
  chunk.records = records;
  buffer_.erase(0, end);
  consumed_ += end;
  scanned_ -= end;
  records_ -= records;  // a value started after `end` (JSON) stays counted
  line_end_ = 0;
  records_to_line_end_ = 0;
  cut_.reset();
  return chunk;
}

std::optional<Chunk> RecordSplitter::CutComplete() {
  if (auto full = Next()) return full;
  if (records_to_line_end_ == 0) return std::nullopt;
  return Cut(line_end_, records_to_line_end_);
}

std::optional<Chunk> RecordSplitter::Next() {
  Scan();
  if (cut_) return Cut(*cut_, records_);
  if (!finished_ || buffer_.empty()) return std::nullopt;
  // The end of the input: the rest, unless it holds no record at all.
  if (mode_ == SplitMode::kCsv && in_value_ && !in_string_) {
    in_value_ = false;
    if (!header_) {
      header_ = std::move(buffer_);
      consumed_ += header_->size();
      buffer_.clear();
      scanned_ = 0;
      return std::nullopt;
    }
    ++records_;
  } else if (mode_ == SplitMode::kCsv && in_string_) {
    ++records_;  // an unterminated quote: the reader reports it
  }
  if (records_ == 0) {
    consumed_ += buffer_.size();
    buffer_.clear();
    scanned_ = 0;
    return std::nullopt;
  }
  return Cut(buffer_.size(), records_);
}

namespace {

// Parses the decimal number at text[pos...]; returns its end, or npos when there is none.
size_t ParseNumber(std::string_view text, size_t pos, uint64_t* value) {
  const auto [end, ec] = std::from_chars(text.data() + pos, text.data() + text.size(), *value);
  if (ec != std::errc()) return std::string_view::npos;
  return static_cast<size_t>(end - text.data());
}

}  // namespace

Status RebaseError(const Status& status, const ChunkPlace& chunk) {
  if (status.ok()) return status;
  const uint64_t first_row = chunk.first_row;
  const uint64_t rows = chunk.rows;
  const uint64_t first_byte = chunk.first_byte;
  std::string message = status.message();
  constexpr std::string_view kRow = "row ";
  constexpr std::string_view kByte = "near byte ";
  uint64_t n = 0;
  size_t end = 0;
  if (message.starts_with(kRow) &&
      (end = ParseNumber(message, kRow.size(), &n)) != std::string_view::npos) {
    message = std::string(kRow) + std::to_string(first_row + n) + message.substr(end);
  } else if (size_t at = message.find(": row ");
             at != std::string::npos &&
             (end = ParseNumber(message, at + 6, &n)) != std::string_view::npos &&
             std::string_view(message).substr(end).starts_with(", field ")) {
    // The broker's `produce to stream 'S': row K, field 'F': ...`: K counts from the batch start.
    message = std::string(kRow) + std::to_string(first_row + n) + message.substr(end) + " (" +
              message.substr(0, at) + ")";
  } else if (!message.starts_with("header")) {
    message = "rows " + std::to_string(first_row) + " to " +
              std::to_string(first_row + std::max<uint64_t>(rows, 1) - 1) + ": " + message;
  }
  const size_t byte = message.find(kByte);
  if (byte != std::string::npos &&
      (end = ParseNumber(message, byte + kByte.size(), &n)) != std::string_view::npos) {
    message = message.substr(0, byte + kByte.size()) + std::to_string(first_byte + n) +
              message.substr(end);
  }
  return Status(status.code(), std::move(message));
}

}  // namespace higgins::cli
