#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "higgins/arrow/array.h"
#include "higgins/arrow/schema.h"

namespace higgins::arrow {

/// A schema plus equal-length columns. Immutable; copying shares the columns.
class RecordBatch {
 public:
  RecordBatch() : schema_(MakeSchema({})) {}

  /// Checks that there is one column per field, each of the field's type and of `num_rows`
  /// length, and that non-nullable fields have no nulls. Does not look at buffer contents: use
  /// ValidateFull() for untrusted data. Errors: InvalidArgument naming the field.
  static Result<RecordBatch> Make(SchemaPtr schema, int64_t num_rows, std::vector<Array> columns);

  const SchemaPtr& schema() const { return schema_; }
  int64_t num_rows() const { return num_rows_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  const Array& column(int i) const { return columns_[static_cast<size_t>(i)]; }
  const std::vector<Array>& columns() const { return columns_; }

  /// Zero-copy rows [offset, offset + length), clamped to the batch.
  RecordBatch Slice(int64_t offset, int64_t length) const;

  /// Equal schemas (fields, types, nullability, metadata) and logically equal columns.
  bool Equals(const RecordBatch& other) const;

 private:
  RecordBatch(SchemaPtr schema, int64_t num_rows, std::vector<Array> columns)
      : schema_(std::move(schema)), num_rows_(num_rows), columns_(std::move(columns)) {}

  SchemaPtr schema_;
  int64_t num_rows_ = 0;
  std::vector<Array> columns_;
};

/// The rows of `batches`, in order, as one batch with `schema`. Every batch must have the
/// schema's fields (names, types, nullability; schema-level metadata may differ): InvalidArgument
/// naming the first batch that does not. No batches give an empty batch; a single batch is
/// returned without copying, others are copied into new buffers.
Result<RecordBatch> ConcatenateBatches(SchemaPtr schema, std::span<const RecordBatch> batches);

}  // namespace higgins::arrow
