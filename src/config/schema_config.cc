#include "config/schema_config.h"

#include <optional>

#include "config/config_internal.h"
#include "config/toml_internal.h"

namespace higgins::config {
namespace {

using internal::Entry;
using internal::InFileOrder;
using internal::Problems;

std::string Where(std::string_view schema, std::string_view field) {
  return "schema '" + std::string(schema) + "', field '" + std::string(field) + "'";
}

/// The type tag of a field's inline table, plus its optional nullability and metadata.
bool ReadFieldTable(const toml::table& table, const std::string& where, Problems* problems,
                    const toml::node** type_node, bool* nullable,
                    arrow::KeyValueMetadata* metadata) {
  bool ok = true;
  for (const Entry& entry : InFileOrder(table)) {
    if (entry.key == "type") {
      *type_node = entry.node;
    } else if (entry.key == "nullable") {
      if (const auto* flag = entry.node->as_boolean()) {
        *nullable = flag->get();
      } else {
        problems->Add(*entry.node, where, "'nullable' must be true or false");
        ok = false;
      }
    } else if (entry.key == "metadata") {
      const toml::table* pairs = entry.node->as_table();
      if (pairs == nullptr) {
        problems->Add(*entry.node, where, "'metadata' must be a table of strings");
        ok = false;
        continue;
      }
      for (const Entry& pair : InFileOrder(*pairs)) {
        if (const auto* value = pair.node->as_string()) {
          metadata->emplace_back(std::string(pair.key), value->get());
        } else {
          problems->Add(*pair.node, where,
                        "metadata value '" + std::string(pair.key) + "' must be a string");
          ok = false;
        }
      }
    } else {
      problems->Add(*entry.node, where,
                    "unknown key '" + std::string(entry.key) +
                        "' (a field table takes type, nullable, metadata)");
      ok = false;
    }
  }
  if (*type_node == nullptr) {
    problems->Add(table, where, "field table has no 'type'");
    ok = false;
  }
  return ok;
}

/// One field; nullopt (with problems recorded) when it is invalid.
std::optional<arrow::Field> ReadField(std::string_view schema_name, const Entry& entry,
                                      Problems* problems) {
  const std::string where = Where(schema_name, entry.key);
  const toml::node* type_node = entry.node;
  bool nullable = true;
  arrow::KeyValueMetadata metadata;
  if (const toml::table* table = entry.node->as_table()) {
    type_node = nullptr;
    if (!ReadFieldTable(*table, where, problems, &type_node, &nullable, &metadata)) {
      return std::nullopt;
    }
  }
  const auto* tag = type_node->as_string();
  if (tag == nullptr) {
    problems->Add(*type_node, where,
                  type_node == entry.node
                      ? "expected a type tag string or a table { type = \"...\", nullable = "
                        "..., metadata = { ... } }"
                      : "'type' must be a type tag string");
    return std::nullopt;
  }
  Result<arrow::DataType> type = arrow::ParseTypeTag(tag->get());
  if (!type.ok()) {
    problems->Add(*type_node, where, type.status().message());
    return std::nullopt;
  }
  return arrow::Field(std::string(entry.key), std::move(*type), nullable, std::move(metadata));
}

}  // namespace

namespace internal {

std::vector<NamedSchema> ReadSchemas(const toml::table& root, Problems* problems) {
  std::vector<NamedSchema> schemas;
  const toml::node* section = root.get("schema");
  if (section == nullptr) return schemas;
  const toml::table* blocks = section->as_table();
  if (blocks == nullptr) {
    problems->Add(*section, "schema", "must be a table of [schema.<name>] blocks");
    return schemas;
  }
  for (const Entry& block : InFileOrder(*blocks)) {
    const std::string where = "schema '" + std::string(block.key) + "'";
    const toml::table* fields = block.node->as_table();
    if (fields == nullptr) {
      problems->Add(*block.node, where,
                    "must be a table of fields ([schema." + std::string(block.key) + "])");
      continue;
    }
    if (fields->empty()) {
      problems->Add(*block.node, where, "has no fields");
      continue;
    }
    if (fields->size() > kMaxSchemaFields) {
      problems->Add(*block.node, where,
                    "has " + std::to_string(fields->size()) + " fields, more than the limit of " +
                        std::to_string(kMaxSchemaFields) + " (that of the Arrow IPC reader)");
      continue;
    }
    std::vector<arrow::Field> schema_fields;
    bool ok = true;
    for (const Entry& entry : InFileOrder(*fields)) {
      if (std::string problem = FieldNameProblem(entry.key); !problem.empty()) {
        problems->Add(*entry.node, where, problem);
        ok = false;
        continue;
      }
      std::optional<arrow::Field> field = ReadField(block.key, entry, problems);
      if (field) {
        schema_fields.push_back(std::move(*field));
      } else {
        ok = false;
      }
    }
    if (ok) {
      schemas.push_back(
          NamedSchema{std::string(block.key), arrow::MakeSchema(std::move(schema_fields))});
    }
  }
  return schemas;
}

}  // namespace internal

Result<std::vector<NamedSchema>> ParseSchemas(std::string_view toml_text) {
  HIGGINS_ASSIGN_OR_RETURN(const toml::table root,
                           internal::ParseToml(toml_text, internal::TextOrigin::kUser));
  internal::Problems problems;
  std::vector<NamedSchema> schemas = internal::ReadSchemas(root, &problems);
  if (!problems.empty()) return problems.ToStatus();
  return schemas;
}

// (document, name in it). Swapped, the name does not parse as a TOML document declaring that
// schema, and the call fails with InvalidArgument.
// NOLINTNEXTLINE(bugprone-easily-swappable-parameters)
Result<arrow::SchemaPtr> LoadSchema(std::string_view toml_text, std::string_view schema_name) {
  HIGGINS_ASSIGN_OR_RETURN(std::vector<NamedSchema> schemas, ParseSchemas(toml_text));
  std::string available;
  for (const NamedSchema& schema : schemas) {
    if (schema.name == schema_name) return schema.schema;
    available += available.empty() ? "" : ", ";
    available += schema.name;
  }
  return Status::NotFound(
      "schema '" + std::string(schema_name) + "' not found (" +
      (available.empty() ? "no schemas are declared" : "declared: " + available) + ")");
}

}  // namespace higgins::config
