#pragma once

#include <cstdint>
#include <string_view>

#include "higgins/arrow/record_batch.h"

namespace higgins::arrow::json {

/// How the input bytes are laid out.
enum class JsonFormat {
  kAuto,    // '[' first: an array of objects; otherwise one object or NDJSON
  kObject,  // exactly one object
  kArray,   // one array of objects
  kNdjson,  // one object per line; blank lines are skipped
};

/// What to do with an object key that is not a field of the schema.
enum class UnknownFields { kError, kIgnore };

struct JsonReadOptions {
  JsonFormat format = JsonFormat::kAuto;
  UnknownFields unknown_fields = UnknownFields::kError;
  /// Explicit limit: more rows than this is ResourceExhausted.
  int64_t max_rows = 10'000'000;
};

/// Converts JSON records into one RecordBatch of `schema` (docs/json.md gives the value rules:
/// integers range-checked, decimals exact from numbers or strings, dates/times/timestamps from ISO
/// 8601 strings or integers, binary as base64, null or a missing key is null). The whole input is
/// validated before anything is returned. Errors: InvalidArgument "row R, field 'F': ..." (rows
/// count from 0 in input order), OutOfRange for numbers that do not fit, duplicate keys rejected,
/// malformed JSON as "row R: malformed JSON near byte N: ...".
/// Thread-safe. Each thread keeps its simdjson parser and a padded copy buffer for reuse.
Result<RecordBatch> ReadJson(std::string_view bytes, const SchemaPtr& schema,
                             const JsonReadOptions& options = {});

}  // namespace higgins::arrow::json
