#include "arrow/json/csv_reader.h"

#include <string>
#include <vector>

#include "arrow/json/csv_tokenizer.h"
#include "arrow/json/value_parser.h"

namespace higgins::arrow::json {
namespace {

constexpr int kUnmapped = -1;

std::string RowPrefix(int64_t row) {
  return "row " + std::to_string(row);
}

std::string FieldPrefix(int64_t row, const Field& field) {
  return RowPrefix(row) + ", field '" + field.name + "'";
}

/// Maps header columns to schema fields. Errors name the header ("header: ...").
Result<std::vector<int>> MapColumns(const std::vector<CsvField>& header, const Schema& schema,
                                    bool ignore_unknown) {
  std::vector<int> columns;
  std::vector<bool> mapped(schema.num_fields(), false);
  for (const CsvField& name : header) {
    const std::optional<size_t> index = schema.FieldIndex(name.text);
    if (!index) {
      if (!ignore_unknown) {
        return Status::InvalidArgument("header: column '" + Excerpt(name.text) +
                                       "' is not in the schema");
      }
      columns.push_back(kUnmapped);
      continue;
    }
    if (mapped[*index]) {
      return Status::InvalidArgument("header: duplicate column '" + Excerpt(name.text) + "'");
    }
    mapped[*index] = true;
    columns.push_back(static_cast<int>(*index));
  }
  for (size_t i = 0; i < schema.num_fields(); ++i) {
    if (!mapped[i] && !schema.field(i).nullable) {
      return Status::InvalidArgument("header: no column for non-nullable field '" +
                                     schema.field(i).name + "'");
    }
  }
  return columns;
}

}  // namespace

Result<RecordBatch> ReadCsv(std::string_view bytes, const SchemaPtr& schema,
                            const CsvReadOptions& options) {
  CsvTokenizer tokenizer(bytes, options.delimiter);
  std::vector<CsvField> fields;
  Result<bool> has_header = tokenizer.Next(&fields);
  if (!has_header.ok()) return has_header.status().WithContext("header");
  if (!*has_header) return Status::InvalidArgument("CSV input has no header row");
  HIGGINS_ASSIGN_OR_RETURN(std::vector<int> columns,
                           MapColumns(fields, *schema, options.ignore_unknown_columns));

  std::vector<ArrayBuilder> builders;
  builders.reserve(schema->num_fields());
  for (const Field& field : schema->fields()) builders.emplace_back(field.type);
  std::vector<bool> in_header(schema->num_fields(), false);
  for (int column : columns) {
    if (column != kUnmapped) in_header[static_cast<size_t>(column)] = true;
  }

  ValueParser parser;
  int64_t row = 0;
  while (true) {
    Result<bool> has_record = tokenizer.Next(&fields);
    if (!has_record.ok()) return has_record.status().WithContext(RowPrefix(row));
    if (!*has_record) break;
    if (row >= options.max_rows) {
      return Status::ResourceExhausted("more than " + std::to_string(options.max_rows) +
                                       " rows (max_rows)");
    }
    if (fields.size() != columns.size()) {
      return Status::InvalidArgument(RowPrefix(row) + ": expected " +
                                     std::to_string(columns.size()) + " fields, got " +
                                     std::to_string(fields.size()));
    }
    for (size_t i = 0; i < fields.size(); ++i) {
      const int column = columns[i];
      if (column == kUnmapped) continue;
      const Field& field = schema->field(static_cast<size_t>(column));
      ArrayBuilder* builder = &builders[static_cast<size_t>(column)];
      if (fields[i].text.empty() && !fields[i].quoted) {
        if (!field.nullable) {
          return Status::InvalidArgument(FieldPrefix(row, field) +
                                         ": empty (null) value for a non-nullable field");
        }
        builder->AppendNull();
        continue;
      }
      Status status = parser.AppendText(builder, fields[i].text);
      if (!status.ok()) return status.WithContext(FieldPrefix(row, field));
    }
    for (size_t f = 0; f < builders.size(); ++f) {
      if (!in_header[f]) builders[f].AppendNull();
    }
    ++row;
  }

  std::vector<Array> arrays;
  arrays.reserve(builders.size());
  for (ArrayBuilder& builder : builders) arrays.push_back(builder.Finish());
  return RecordBatch::Make(schema, row, std::move(arrays));
}

}  // namespace higgins::arrow::json
