#include "stream/batch_rows.h"

namespace higgins::stream {

Result<arrow::RecordBatch> TakeRows(const arrow::RecordBatch& batch,
                                    std::span<const int64_t> rows) {
  if (static_cast<int64_t>(rows.size()) == batch.num_rows()) {
    bool identity = true;
    for (size_t i = 0; identity && i < rows.size(); ++i)
      identity = rows[i] == static_cast<int64_t>(i);
    if (identity) return batch;
  }
  std::vector<arrow::Array> columns;
  columns.reserve(static_cast<size_t>(batch.num_columns()));
  for (int c = 0; c < batch.num_columns(); ++c) {
    arrow::ArrayBuilder builder(batch.schema()->field(static_cast<size_t>(c)).type);
    builder.Reserve(static_cast<int64_t>(rows.size()));
    for (int64_t r : rows) HIGGINS_RETURN_IF_ERROR(builder.AppendFrom(batch.column(c), r));
    columns.push_back(builder.Finish());
  }
  return arrow::RecordBatch::Make(batch.schema(), static_cast<int64_t>(rows.size()),
                                  std::move(columns));
}

Result<arrow::RecordBatch> ProjectRow(const arrow::RecordBatch& batch, int64_t row,
                                      const arrow::SchemaPtr& schema) {
  std::vector<arrow::Array> columns;
  for (size_t f = 0; f < schema->num_fields(); ++f) {
    const arrow::Field& field = schema->field(f);
    arrow::ArrayBuilder builder(field.type);
    auto source = batch.schema()->FieldIndex(field.name);
    if (!source) {
      builder.AppendNull();
    } else {
      const arrow::Field& from = batch.schema()->field(*source);
      if (!(from.type == field.type)) {
        return Status::InvalidArgument("field '" + field.name + "' has type " +
                                       from.type.ToString() + " in the base stream and " +
                                       field.type.ToString() + " in the derived one");
      }
      HIGGINS_RETURN_IF_ERROR(builder.AppendFrom(batch.column(static_cast<int>(*source)), row));
    }
    columns.push_back(builder.Finish());
  }
  return arrow::RecordBatch::Make(schema, 1, std::move(columns));
}

Result<arrow::RecordBatch> KeyOnlyRow(const arrow::SchemaPtr& schema, int key_field,
                                      const arrow::Array& key_column, int64_t row) {
  std::vector<arrow::Array> columns;
  for (size_t f = 0; f < schema->num_fields(); ++f) {
    arrow::ArrayBuilder builder(schema->field(f).type);
    if (static_cast<int>(f) == key_field) {
      HIGGINS_RETURN_IF_ERROR(builder.AppendFrom(key_column, row));
    } else {
      builder.AppendNull();
    }
    columns.push_back(builder.Finish());
  }
  return arrow::RecordBatch::Make(schema, 1, std::move(columns));
}

}  // namespace higgins::stream
