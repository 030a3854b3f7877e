#pragma once

// Cuts JSON or CSV text into chunks of whole records, so `produce` converts and sends a large
// input a bounded piece at a time. Sans-I/O: the caller appends bytes as it reads them.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "higgins/status.h"

namespace higgins::cli {

enum class SplitMode {
  /// JSON values (objects) one after another, normally one per line (NDJSON); an object may span
  /// lines. A chunk ends at a line break outside every value.
  kJson,
  /// CSV with a header row (RFC 4180). A chunk ends at a line break outside quotes; the header is
  /// repeated at the start of every chunk.
  kCsv,
};

/// A piece of the input holding whole records.
struct Chunk {
  /// What to give the reader (for CSV: the header, then the chunk's records).
  std::string text;
  /// Offset in the whole input of the chunk's first record byte.
  uint64_t first_byte = 0;
  /// Records (non-blank values or lines, as the readers count rows) in the chunk.
  uint64_t records = 0;
};

/// When RecordSplitter cuts a chunk: as soon as it holds at least `max_records` records (0 counts
/// as 1) or `max_bytes` bytes, whichever comes first, and a record ends.
struct SplitLimits {
  uint64_t max_records = 1;
  size_t max_bytes = 0;
};

/// Not thread-safe.
class RecordSplitter {
 public:
  /// Chunks cut at `limits`; a single record may be longer than max_bytes.
  RecordSplitter(SplitMode mode, SplitLimits limits);

  /// Appends input.
  void Append(std::string_view bytes);
  /// Declares the end of the input: what is left becomes the last chunk, even when its last
  /// record is incomplete (the reader then reports it).
  void Finish();

  /// The next full chunk, or nullopt until more input (or Finish()) arrives.
  std::optional<Chunk> Next();
  /// The next full chunk, else the records complete so far (up to the last line break that ends
  /// a record), or nullopt when no record is complete: for an input that arrives slowly (a
  /// pipe), whose records should not wait for a full chunk.
  std::optional<Chunk> CutComplete();

  /// Bytes held that are not yet part of a returned chunk.
  size_t buffered_bytes() const { return buffer_.size(); }

  /// CSV: the header line (with its line break), once complete.
  const std::optional<std::string>& header() const { return header_; }

 private:
  void Scan();
  void StartValue();
  void EndLine();
  Chunk Cut(size_t end, uint64_t records);

  SplitMode mode_;
  uint64_t max_records_;
  size_t max_bytes_;
  std::string buffer_;     // input not yet returned, starting at input offset consumed_
  uint64_t consumed_ = 0;  // input bytes returned in chunks (or taken as the CSV header)
  size_t scanned_ = 0;     // bytes of buffer_ already scanned
  bool finished_ = false;
  std::optional<std::string> header_;  // CSV: the header line, once complete

  std::optional<size_t> cut_;         // where the next full chunk ends in buffer_, once found
  uint64_t records_ = 0;              // records in buffer_[0, scanned_)
  size_t line_end_ = 0;               // in buffer_: after the last line break that ended a record
  uint64_t records_to_line_end_ = 0;  // records in buffer_[0, line_end_)

  // Scanner state at scanned_.
  int depth_ = 0;           // JSON: nesting of {} and []
  bool in_string_ = false;  // JSON string, or CSV quoted field
  bool escaped_ = false;    // JSON: the previous byte was a backslash inside a string
  bool in_value_ = false;   // JSON: inside a top-level value; CSV: the line has content
};

/// Where one chunk lies in the whole input: the input's number of its first row, its count of
/// rows, and the input's offset of its first byte.
struct ChunkPlace {
  uint64_t first_row = 0;
  uint64_t rows = 0;
  uint64_t first_byte = 0;
};

/// Restates a reader's error about one chunk in terms of the whole input: a leading
/// `row R` becomes `row first_row + R`, and `near byte N` becomes `near byte first_byte + N`.
/// A broker's `...: row K, field 'F': why` becomes `row first_row + K, field 'F': why (...)`.
/// Any other message is prefixed with `rows A to B: `, the chunk's rows.
Status RebaseError(const Status& status, const ChunkPlace& chunk);

}  // namespace higgins::cli
