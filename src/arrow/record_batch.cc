#include "higgins/arrow/record_batch.h"

#include <algorithm>
#include <string>

namespace higgins::arrow {

Result<RecordBatch> RecordBatch::Make(SchemaPtr schema, int64_t num_rows,
                                      std::vector<Array> columns) {
  if (schema == nullptr) return Status::InvalidArgument("record batch without a schema");
  if (num_rows < 0) return Status::InvalidArgument("negative record batch length");
  if (columns.size() != schema->num_fields()) {
    return Status::InvalidArgument("record batch has " + std::to_string(columns.size()) +
                                   " columns but the schema has " +
                                   std::to_string(schema->num_fields()) + " fields");
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    const Field& f = schema->field(i);
    const Array& c = columns[i];
    if (!(c.type() == f.type)) {
      return Status::InvalidArgument("column '" + f.name + "' has type " + c.type().ToString() +
                                     " but the schema says " + f.type.ToString());
    }
    if (c.length() != num_rows) {
      return Status::InvalidArgument("column '" + f.name + "' has " + std::to_string(c.length()) +
                                     " rows, expected " + std::to_string(num_rows));
    }
    if (!f.nullable && c.null_count() != 0 && f.type.id() != TypeId::kNull) {
      return Status::InvalidArgument("column '" + f.name + "' is not nullable but has " +
                                     std::to_string(c.null_count()) + " nulls");
    }
    if (static_cast<int>(c.data().buffers.size()) != f.type.num_buffers()) {
      return Status::InvalidArgument("column '" + f.name + "' has the wrong number of buffers");
    }
  }
  return RecordBatch(std::move(schema), num_rows, std::move(columns));
}

RecordBatch RecordBatch::Slice(int64_t offset, int64_t length) const {
  offset = std::clamp<int64_t>(offset, 0, num_rows_);
  length = std::clamp<int64_t>(length, 0, num_rows_ - offset);
  std::vector<Array> cols;
  cols.reserve(columns_.size());
  for (const Array& c : columns_) cols.push_back(c.Slice(offset, length));
  return RecordBatch(schema_, length, std::move(cols));
}

bool RecordBatch::Equals(const RecordBatch& other) const {
  if (num_rows_ != other.num_rows_ || !(*schema_ == *other.schema_)) return false;
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (!columns_[i].Equals(other.columns_[i])) return false;
  }
  return true;
}

}  // namespace higgins::arrow

namespace higgins::arrow {

namespace {

Status CheckBatchFields(const Schema& schema, const RecordBatch& batch, size_t index) {
  if (batch.schema()->fields() == schema.fields()) return Status::OK();
  return Status::InvalidArgument("batch " + std::to_string(index) + " has the fields\n" +
                                 batch.schema()->ToString() + "\nbut expected\n" +
                                 schema.ToString());
}

}  // namespace

Result<RecordBatch> ConcatenateBatches(SchemaPtr schema, std::span<const RecordBatch> batches) {
  if (schema == nullptr) return Status::InvalidArgument("concatenation without a schema");
  int64_t rows = 0;
  for (size_t i = 0; i < batches.size(); ++i) {
    HIGGINS_RETURN_IF_ERROR(CheckBatchFields(*schema, batches[i], i));
    rows += batches[i].num_rows();
  }
  if (batches.size() == 1) return RecordBatch::Make(std::move(schema), rows, batches[0].columns());
  std::vector<Array> columns;
  columns.reserve(schema->num_fields());
  for (size_t c = 0; c < schema->num_fields(); ++c) {
    ArrayBuilder builder(schema->field(c).type);
    builder.Reserve(rows);
    for (const RecordBatch& batch : batches) {
      const Array& column = batch.column(static_cast<int>(c));
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        HIGGINS_RETURN_IF_ERROR(builder.AppendFrom(column, r));
      }
    }
    columns.push_back(builder.Finish());
  }
  return RecordBatch::Make(std::move(schema), rows, std::move(columns));
}

}  // namespace higgins::arrow
