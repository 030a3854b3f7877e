#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "arrow/json/field_index.h"
#include "arrow/json/json_reader.h"
#include "arrow/json/value_parser.h"

namespace higgins::arrow::json {

/// Turns simdjson On Demand objects into rows: one ArrayBuilder per schema field, keys matched by
/// FieldIndex, values converted by ValueParser. Detects duplicate keys (simdjson keeps one
/// silently), unescapes keys before matching, and fully validates the values of ignored keys
/// (On Demand skips them unread otherwise). No allocation per row beyond builder growth; the
/// common cases (keys in schema order, in-range integers, float64, strings) take a fast path.
///
/// `input` is the padded copy simdjson parses; byte positions in errors are offsets into it,
/// which equal offsets into the caller's bytes. Not thread-safe. After an error the builder must
/// be discarded.
class JsonRowBuilder {
 public:
  /// `input` is the padded copy of the caller's `size` bytes.
  JsonRowBuilder(const SchemaPtr& schema, UnknownFields unknown_fields, const char* input,
                 size_t size);

  /// Appends `object` as row num_rows(). `location` is where the object starts in the input
  /// (for error positions).
  Status AppendObject(simdjson::ondemand::object object, const char* location);

  int64_t num_rows() const { return num_rows_; }

  /// The next rows come from `size` bytes at `input` (a padded copy, as for the constructor):
  /// rows keep accumulating, error positions refer to the new input.
  void SetInput(const char* input, size_t size) {
    input_ = input;
    input_end_ = input + size;
  }

  /// Reserves builder space for the rows (and string bytes) that `input_size` bytes of JSON
  /// hold, judging by the rows appended so far having come from the current input up to
  /// `position`: for inputs yet to come that resemble it (JsonBatchReader::ExpectBytes).
  void ReserveFor(int64_t input_size, const char* position);

  /// The built batch; the builders are reset.
  Result<RecordBatch> Finish();

  /// InvalidArgument "row R: malformed JSON near byte N: <what>" (the byte is omitted when
  /// `location` is null). simdjson reports errors without a position, so N is the start of the
  /// last value read before the error was seen (exact for bad values, nearby for bad structure).
  Status Malformed(std::string_view what, const char* location) const;
  Status Malformed(simdjson::error_code error, const char* location) const;

 private:
  /// The common cases a column takes directly from simdjson's validated parse, before (and
  /// with the same result as) the general ValueParser path, which handles everything else.
  enum class FastPath : uint8_t { kNone, kInteger, kFloat64, kString };

  struct Column {
    explicit Column(const Field& field);

    ArrayBuilder builder;
    std::string_view name;  // the schema's, which outlives the builder
    bool nullable;
    /// The name has no '"' or '\\' (so raw key bytes can be compared with it) and is the
    /// first field of that name.
    bool raw_matchable;
    FastPath fast = FastPath::kNone;
    int64_t min = 0;  // kInteger range
    int64_t max = 0;
    /// == num_rows_ + 1 when the column has a value in the current row, so nothing needs
    /// clearing between rows.
    int64_t seen = 0;
    int64_t string_bytes = 0;  // appended by the kString fast path, to size the builder
  };

  /// Reserves builder space for the rows expected in the rest of the input, `position` being
  /// where the next row starts.
  void Reserve(const char* position);

  /// The column of `field`'s key, or -1 (unknown key, or `*error` set); `*key` is the key.
  int MatchKey(simdjson::ondemand::field& field, int guess, std::string_view* key,
               simdjson::error_code* error);
  /// True when the fast path took the value (appending it, or setting `*error`); false to take
  /// the general path.
  bool TryFast(int index, simdjson::ondemand::value& value, Status* error);
  /// MatchKey's general case: escapes, keys out of schema order, unknown keys.
  int LookupKey(simdjson::ondemand::field& field, int guess, std::string_view* key,
                simdjson::error_code* error);
  Status AppendField(int index, simdjson::ondemand::value value);
  Status AppendNonNull(int index, simdjson::ondemand::json_type kind,
                       simdjson::ondemand::value value);
  Status SkipValue(simdjson::ondemand::value value, int depth);
  Status InvalidLiteral(simdjson::ondemand::value value) const;
  Status FieldError(int index, const Status& status) const;
  Status KeyError(std::string_view key, std::string_view what) const;
  Status FinishRow();

  SchemaPtr schema_;
  UnknownFields unknown_fields_;
  const char* input_;
  const char* input_end_;
  FieldIndex index_;
  std::vector<Column> columns_;
  size_t seen_count_ = 0;
  int64_t num_rows_ = 0;
  ValueParser parser_;
};

}  // namespace higgins::arrow::json
