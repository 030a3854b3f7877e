#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "higgins/result.h"

namespace higgins::arrow::json {

/// One field of a CSV record. `text` has the quotes removed and "" resolved; it points into the
/// input or into the tokenizer's scratch space and stays valid until the next call to Next().
struct CsvField {
  std::string_view text;
  bool quoted = false;
};

/// Splits RFC 4180 CSV into records: fields separated by the delimiter, records by LF or CRLF,
/// double-quoted fields may hold delimiters, line breaks and "" (one quote). The last record may
/// end without a line break, or with a lone CR (a lone CR elsewhere is data). Lines that are
/// completely empty are skipped (so a one-column empty line is no record at all). A UTF-8 byte
/// order mark at the start is skipped. Sans-I/O: works on the bytes it is given. Not thread-safe.
class CsvTokenizer {
 public:
  CsvTokenizer(std::string_view bytes, char delimiter);

  /// Reads the next record into `fields` (cleared first). Returns false at the end of input.
  /// Errors: InvalidArgument "<what>" without a row prefix (the caller knows the row):
  /// unterminated quoted field, a quote inside an unquoted field, text after a closing quote.
  Result<bool> Next(std::vector<CsvField>* fields);

 private:
  Status ReadQuoted(size_t* pos, CsvField* field);

  std::string_view bytes_;
  char delimiter_;
  size_t pos_ = 0;
  std::string scratch_;
  /// Fields unescaped into scratch_ are recorded as offsets until the record is complete, since
  /// scratch_ may move while it grows.
  std::vector<std::pair<size_t, size_t>> scratch_fields_;
};

}  // namespace higgins::arrow::json
