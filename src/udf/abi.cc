#include "udf/abi.h"

#include <string>
#include <utility>
#include <vector>

#include "higgins/arrow/ipc/reader.h"
#include "higgins/arrow/ipc/writer.h"

namespace higgins::udf {
namespace {

std::string FieldNames(const arrow::Schema& schema) {
  std::string out;
  for (const arrow::Field& field : schema.fields()) {
    if (!out.empty()) out += ", ";
    out += field.name;
  }
  return out;
}

// "name: type", without nullability (the result's nullability does not matter).
std::string NameAndType(const arrow::Field& field) {
  return field.name + ": " + field.type.ToString();
}

// Every difference in names, order and types between the result's schema and the expected one;
// empty when they match.
std::string SchemaDifferences(const arrow::Schema& actual, const arrow::Schema& expected) {
  if (actual.num_fields() != expected.num_fields()) {
    return "it has " + std::to_string(actual.num_fields()) + " fields (" + FieldNames(actual) +
           ") where " + std::to_string(expected.num_fields()) + " are expected (" +
           FieldNames(expected) + ")";
  }
  std::string out;
  for (size_t i = 0; i < expected.num_fields(); ++i) {
    const arrow::Field& a = actual.field(i);
    const arrow::Field& e = expected.field(i);
    if (a.name == e.name && a.type == e.type) continue;
    if (!out.empty()) out += "; ";
    out += "field " + std::to_string(i) + " is '" + NameAndType(a) + "' where '" + NameAndType(e) +
           "' is expected";
  }
  return out;
}

}  // namespace

Result<std::string> EncodeBatch(const arrow::RecordBatch& batch) {
  HIGGINS_ASSIGN_OR_RETURN(Buffer bytes, arrow::ipc::WriteStream(batch.schema(), {batch}));
  return std::string(bytes.view());
}

Result<arrow::RecordBatch> DecodeResult(std::string_view ipc_stream,
                                        const arrow::SchemaPtr& expected) {
  // A copy: the decoded batch is a zero-copy view of these bytes and must own them.
  auto read = arrow::ipc::ReadStream(Buffer::Copy(ipc_stream));
  if (!read.ok()) {
    return Status::InvalidArgument("the module's result is not a valid Arrow IPC stream: " +
                                   read.status().message());
  }
  if (read->batches.size() != 1) {
    return Status::InvalidArgument("the module's result has " +
                                   std::to_string(read->batches.size()) +
                                   " record batches; exactly one is expected");
  }
  const arrow::RecordBatch& batch = read->batches.front();
  if (std::string diff = SchemaDifferences(*read->schema, *expected); !diff.empty()) {
    return Status::InvalidArgument("the module's result schema differs from the stream's: " + diff);
  }
  for (size_t i = 0; i < expected->num_fields(); ++i) {
    const arrow::Field& field = expected->field(i);
    const int64_t nulls = batch.column(static_cast<int>(i)).null_count();
    if (!field.nullable && nulls > 0) {
      return Status::InvalidArgument("the module's result has " + std::to_string(nulls) +
                                     " null(s) in field '" + field.name +
                                     "', which the stream's schema declares not null");
    }
  }
  auto rebuilt = arrow::RecordBatch::Make(expected, batch.num_rows(), batch.columns());
  if (!rebuilt.ok()) {
    return Status::InvalidArgument("the module's result does not fit the stream's schema: " +
                                   rebuilt.status().message());
  }
  return std::move(rebuilt).value();
}

}  // namespace higgins::udf
