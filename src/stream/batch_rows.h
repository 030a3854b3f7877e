#pragma once

#include <cstdint>
#include <span>

#include "higgins/arrow/record_batch.h"
#include "higgins/result.h"

namespace higgins::stream {

/// Row-level helpers for derived-stream processors.

/// The rows `rows` of `batch`, in that order, as a new batch with the same schema.
Result<arrow::RecordBatch> TakeRows(const arrow::RecordBatch& batch, std::span<const int64_t> rows);

/// Row `row` of `batch` as a 1-row batch of `schema`: each field of `schema` takes the column of
/// the same name in `batch` (the types must be equal), or null when `batch` has no such column.
/// Errors: InvalidArgument for a type difference or a missing non-nullable field.
Result<arrow::RecordBatch> ProjectRow(const arrow::RecordBatch& batch, int64_t row,
                                      const arrow::SchemaPtr& schema);

/// A 1-row batch of `schema` whose field `key_field` is row `row` of `key_column` (of the same
/// type) and whose other fields are null. Errors: InvalidArgument when another field is not
/// nullable.
Result<arrow::RecordBatch> KeyOnlyRow(const arrow::SchemaPtr& schema, int key_field,
                                      const arrow::Array& key_column, int64_t row);

}  // namespace higgins::stream
