#pragma once

#include <cstdint>
#include <string_view>

#include "higgins/arrow/record_batch.h"

namespace higgins::arrow::json {

struct CsvReadOptions {
  char delimiter = ',';
  /// Header names not in the schema: error (default) or ignore the column.
  bool ignore_unknown_columns = false;
  int64_t max_rows = 10'000'000;
};

/// Converts CSV (RFC 4180: a header row naming the columns, quoted fields with "" escapes, CRLF or
/// LF line ends) into one RecordBatch of `schema`. Columns are matched by header name; fields
/// missing from the header are null. An empty unquoted value is null; a quoted "" is the empty
/// string. Values are converted by the same rules as JSON strings. Errors: InvalidArgument
/// "row R, field 'F': ..." (data rows count from 0; the header is not a row), "row R: expected N
/// fields, got M" for ragged rows, "header: ..." for unknown, duplicate or missing non-nullable
/// columns; ResourceExhausted past max_rows. Completely empty lines are skipped. Thread-safe.
Result<RecordBatch> ReadCsv(std::string_view bytes, const SchemaPtr& schema,
                            const CsvReadOptions& options = {});

}  // namespace higgins::arrow::json
