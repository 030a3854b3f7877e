#include "tests/conformance/integration_json_reader.h"

#include <simdjson.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

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

// A dictionary-encoded field: batches hold indices of `index_type` into dictionary `id`.
struct EncodedField {
  size_t field_index = 0;
  int64_t id = 0;
  arrow::DataType index_type;
};

// The schema with plain value types, and which fields are dictionary-encoded.
struct ParsedSchema {
  arrow::SchemaPtr schema;
  std::vector<EncodedField> encoded;
};

// The "dictionary" member of field `index`, if any ({"id", "indexType", "isOrdered"}).
Result<std::optional<EncodedField>> ParseEncoding(object json, size_t index,
                                                  std::string_view name) {
  object dictionary;
  if (json["dictionary"].get(dictionary) != simdjson::SUCCESS) {
    return std::optional<EncodedField>();
  }
  int64_t id = 0;
  object index_type;
  if (dictionary["id"].get(id) != simdjson::SUCCESS ||
      dictionary["indexType"].get(index_type) != simdjson::SUCCESS) {
    return Malformed("field '" + std::string(name) + "': dictionary without id or indexType");
  }
  HIGGINS_ASSIGN_OR_RETURN(arrow::DataType type, ParseIntegrationType(index_type, name));
  if (!type.is_integer()) {
    return Malformed("field '" + std::string(name) + "': dictionary index type " + type.ToString());
  }
  return std::optional<EncodedField>(EncodedField{index, id, type});
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
  HIGGINS_ASSIGN_OR_RETURN(arrow::DataType data_type, ParseIntegrationType(type, name));
  array children;
  if (json["children"].get(children) == simdjson::SUCCESS && children.size() != 0) {
    return Malformed("field '" + std::string(name) + "' of a primitive type has children");
  }
  HIGGINS_ASSIGN_OR_RETURN(arrow::KeyValueMetadata metadata, ParseMetadata(json));
  return arrow::Field(std::string(name), data_type, nullable, std::move(metadata));
}

Result<ParsedSchema> ParseSchema(element root) {
  object schema;
  array fields;
  if (root["schema"].get(schema) != simdjson::SUCCESS ||
      schema["fields"].get(fields) != simdjson::SUCCESS) {
    return Malformed("document without schema.fields");
  }
  std::vector<arrow::Field> out;
  ParsedSchema parsed;
  for (element f : fields) {
    object field;
    if (f.get(field) != simdjson::SUCCESS) return Malformed("field is not an object");
    HIGGINS_ASSIGN_OR_RETURN(arrow::Field plain, ParseField(field));
    HIGGINS_ASSIGN_OR_RETURN(auto encoding, ParseEncoding(field, out.size(), plain.name));
    if (encoding) parsed.encoded.push_back(*encoding);
    out.push_back(std::move(plain));
  }
  HIGGINS_ASSIGN_OR_RETURN(arrow::KeyValueMetadata metadata, ParseMetadata(schema));
  parsed.schema = arrow::MakeSchema(std::move(out), std::move(metadata));
  return parsed;
}

// The "dictionaries" member: {"id", "data": {"count", "columns": [one column]}} each, parsed
// with the value type of a field using the id. Ids no field uses are Corruption.
Result<std::map<int64_t, arrow::Array>> ParseDictionaries(element root, const ParsedSchema& s) {
  std::map<int64_t, arrow::Array> out;
  array dictionaries;
  if (root["dictionaries"].get(dictionaries) != simdjson::SUCCESS) return out;
  for (element d : dictionaries) {
    int64_t id = 0;
    int64_t count = -1;
    array columns;
    if (d["id"].get(id) != simdjson::SUCCESS ||
        d["data"]["count"].get(count) != simdjson::SUCCESS ||
        d["data"]["columns"].get(columns) != simdjson::SUCCESS || columns.size() != 1) {
      return Malformed("dictionary without id, data.count or one column");
    }
    const EncodedField* user = nullptr;
    for (const EncodedField& e : s.encoded) {
      if (e.id == id) user = &e;
    }
    if (user == nullptr) return Malformed("dictionary " + std::to_string(id) + " is not used");
    object column;
    if (columns.at(0).get(column) != simdjson::SUCCESS) return Malformed("column is not an object");
    // The column is named after the dictionary ("DICT0"), not after the field.
    std::string_view name;
    if (column["name"].get(name) != simdjson::SUCCESS) return Malformed("column without a name");
    const arrow::DataType& type = s.schema->field(user->field_index).type;
    HIGGINS_ASSIGN_OR_RETURN(
        arrow::Array values,
        ParseIntegrationColumn(arrow::Field(std::string(name), type), column, count));
    out[id] = std::move(values);
  }
  return out;
}

// Looks every index up in `dictionary` (independently of the IPC reader's decoding).
Result<arrow::Array> Lookup(const arrow::Array& indices, const arrow::Array& dictionary) {
  arrow::ArrayBuilder builder(dictionary.type());
  for (int64_t i = 0; i < indices.length(); ++i) {
    if (indices.IsNull(i)) {
      builder.AppendNull();
      continue;
    }
    const int64_t index = indices.IntegerValue(i);
    if (index < 0 || index >= dictionary.length()) {
      return Malformed("index " + std::to_string(index) + " is out of range");
    }
    HIGGINS_RETURN_IF_ERROR(builder.AppendFrom(dictionary, index));
  }
  return builder.Finish();
}

Result<arrow::RecordBatch> ParseBatch(const ParsedSchema& parsed,
                                      const std::map<int64_t, arrow::Array>& dictionaries,
                                      element batch) {
  const arrow::SchemaPtr& schema = parsed.schema;
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
    const arrow::Field& field = schema->field(i);
    const EncodedField* encoded = nullptr;
    for (const EncodedField& e : parsed.encoded) {
      if (e.field_index == i) encoded = &e;
    }
    if (encoded == nullptr) {
      HIGGINS_ASSIGN_OR_RETURN(arrow::Array a, ParseIntegrationColumn(field, column, count));
      arrays.push_back(std::move(a));
    } else {
      const arrow::Field index_field(field.name, encoded->index_type, field.nullable);
      HIGGINS_ASSIGN_OR_RETURN(arrow::Array indices,
                               ParseIntegrationColumn(index_field, column, count));
      const auto dictionary = dictionaries.find(encoded->id);
      if (dictionary == dictionaries.end()) {
        return Malformed("field '" + field.name + "': no dictionary " +
                         std::to_string(encoded->id));
      }
      HIGGINS_ASSIGN_OR_RETURN(arrow::Array a, Lookup(indices, dictionary->second));
      arrays.push_back(std::move(a));
    }
    ++i;
  }
  return arrow::RecordBatch::Make(schema, count, std::move(arrays));
}

}  // namespace

Result<arrow::ipc::ReadResult> ParseIntegrationJson(std::string_view json) {
  simdjson::dom::parser parser;
  HIGGINS_ASSIGN_OR_RETURN(element root, ParseDocument(parser, json));
  arrow::ipc::ReadResult out;
  HIGGINS_ASSIGN_OR_RETURN(ParsedSchema parsed, ParseSchema(root));
  HIGGINS_ASSIGN_OR_RETURN(auto dictionaries, ParseDictionaries(root, parsed));
  out.schema = parsed.schema;
  array batches;
  if (root["batches"].get(batches) != simdjson::SUCCESS) return Malformed("no batches array");
  for (element b : batches) {
    HIGGINS_ASSIGN_OR_RETURN(arrow::RecordBatch batch, ParseBatch(parsed, dictionaries, b));
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
