#include "tests/conformance/integration_json_reader.h"

#include <simdjson.h>

#include <string>

#include "tests/conformance/integration_json_column.h"
#include "tests/conformance/integration_json_type.h"

namespace higgins::conformance {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

Status Malformed(std::string_view what) {
  return Status::Corruption("integration JSON: " + std::string(what));
}

Result<element> ParseDocument(simdjson::dom::parser& parser, std::string_view json) {
  element root;
  if (auto error = parser.parse(json.data(), json.size()).get(root)) {
    return Malformed(simdjson::error_message(error));
  }
  return root;
}

// An absent "metadata" member is empty metadata.
Result<arrow::KeyValueMetadata> ParseMetadata(object owner) {
  arrow::KeyValueMetadata out;
  array entries;
  if (owner["metadata"].get(entries) != simdjson::SUCCESS) return out;
  for (element entry : entries) {
    std::string_view key;
    std::string_view value;
    if (entry["key"].get(key) != simdjson::SUCCESS ||
        entry["value"].get(value) != simdjson::SUCCESS) {
      return Malformed("metadata entry without a string key and value");
    }
    out.emplace_back(std::string(key), std::string(value));
  }
  return out;
}

Result<arrow::Field> ParseField(object json) {
  std::string_view name;
  bool nullable = true;
  object type;
  if (json["name"].get(name) != simdjson::SUCCESS ||
      json["nullable"].get(nullable) != simdjson::SUCCESS ||
      json["type"].get(type) != simdjson::SUCCESS) {
    return Malformed("field without name, nullable or type");
  }
  if (json["dictionary"].error() != simdjson::NO_SUCH_FIELD) {
    return Status::NotSupported("field '" + std::string(name) +
                                "': dictionary encoding is not supported");
  }
  HIGGINS_ASSIGN_OR_RETURN(arrow::DataType data_type, ParseIntegrationType(type, name));
  array children;
  if (json["children"].get(children) == simdjson::SUCCESS && children.size() != 0) {
    return Malformed("field '" + std::string(name) + "' of a primitive type has children");
  }
  HIGGINS_ASSIGN_OR_RETURN(arrow::KeyValueMetadata metadata, ParseMetadata(json));
  return arrow::Field(std::string(name), data_type, nullable, std::move(metadata));
}

Result<arrow::SchemaPtr> ParseSchema(element root) {
  object schema;
  array fields;
  if (root["schema"].get(schema) != simdjson::SUCCESS ||
      schema["fields"].get(fields) != simdjson::SUCCESS) {
    return Malformed("document without schema.fields");
  }
  std::vector<arrow::Field> out;
  for (element f : fields) {
    object field;
    if (f.get(field) != simdjson::SUCCESS) return Malformed("field is not an object");
    HIGGINS_ASSIGN_OR_RETURN(arrow::Field parsed, ParseField(field));
    out.push_back(std::move(parsed));
  }
  HIGGINS_ASSIGN_OR_RETURN(arrow::KeyValueMetadata metadata, ParseMetadata(schema));
  return arrow::MakeSchema(std::move(out), std::move(metadata));
}

Result<arrow::RecordBatch> ParseBatch(const arrow::SchemaPtr& schema, element batch) {
  int64_t count = -1;
  array columns;
  if (batch["count"].get(count) != simdjson::SUCCESS || count < 0 ||
      batch["columns"].get(columns) != simdjson::SUCCESS) {
    return Malformed("batch without count or columns");
  }
  if (columns.size() != schema->num_fields()) return Malformed("batch column count != fields");
  std::vector<arrow::Array> arrays;
  size_t i = 0;
  for (element c : columns) {
    object column;
    if (c.get(column) != simdjson::SUCCESS) return Malformed("column is not an object");
    HIGGINS_ASSIGN_OR_RETURN(arrow::Array a,
                             ParseIntegrationColumn(schema->field(i), column, count));
    arrays.push_back(std::move(a));
    ++i;
  }
  return arrow::RecordBatch::Make(schema, count, std::move(arrays));
}

}  // namespace

Result<arrow::ipc::ReadResult> ParseIntegrationJson(std::string_view json) {
  simdjson::dom::parser parser;
  HIGGINS_ASSIGN_OR_RETURN(element root, ParseDocument(parser, json));
  arrow::ipc::ReadResult out;
  HIGGINS_ASSIGN_OR_RETURN(out.schema, ParseSchema(root));
  array batches;
  if (root["batches"].get(batches) != simdjson::SUCCESS) return Malformed("no batches array");
  for (element b : batches) {
    HIGGINS_ASSIGN_OR_RETURN(arrow::RecordBatch batch, ParseBatch(out.schema, b));
    out.batches.push_back(std::move(batch));
  }
  return out;
}

Result<std::vector<int64_t>> IntegrationBatchRowCounts(std::string_view json) {
  simdjson::dom::parser parser;
  HIGGINS_ASSIGN_OR_RETURN(element root, ParseDocument(parser, json));
  array batches;
  if (root["batches"].get(batches) != simdjson::SUCCESS) return Malformed("no batches array");
  std::vector<int64_t> counts;
  for (element b : batches) {
    int64_t count = -1;
    if (b["count"].get(count) != simdjson::SUCCESS) return Malformed("batch without count");
    counts.push_back(count);
  }
  return counts;
}

}  // namespace higgins::conformance
