#pragma once

#include <cstdint>
#include <memory>
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

/// Reads the JSON records of several inputs into one RecordBatch of `schema`, the rows of each
/// Append after those of the previous ones, under the rules of ReadJson (each input is one
/// object, an array of objects or NDJSON, as `options.format` says). So many small inputs (one-row
/// produce requests) share one set of column builders and one batch. `options.max_rows` bounds
/// the rows of all inputs together; row numbers in errors count across them. After an Append
/// fails the reader holds an unknown part of that input's rows: discard it. Not thread-safe (one
/// reader per thread; the thread's parser is shared with ReadJson).
class JsonBatchReader {
 public:
  explicit JsonBatchReader(const SchemaPtr& schema, const JsonReadOptions& options = {});
  ~JsonBatchReader();
  JsonBatchReader(const JsonBatchReader&) = delete;
  JsonBatchReader& operator=(const JsonBatchReader&) = delete;

  /// Says that the inputs appended will add up to about `bytes`: after the first Append the
  /// column builders reserve room for the rows that many bytes of similar input hold, so
  /// that many small inputs do not grow them step by step.
  void ExpectBytes(size_t bytes);
  /// Appends every record of `bytes`, all validated. Errors: as ReadJson.
  Status Append(std::string_view bytes);
  /// Rows appended so far.
  int64_t num_rows() const;
  /// The batch of every row appended. Call once.
  Result<RecordBatch> Finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace higgins::arrow::json
