#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "higgins/arrow/schema.h"
#include "higgins/result.h"

namespace higgins::config {

/// Most fields in one schema: that of the Arrow IPC reader (ipc::IpcLimits::max_fields), so that
/// every schema the configuration accepts can be written and read back.
inline constexpr size_t kMaxSchemaFields = 10'000;

/// One `[schema.<name>]` block of a configuration.
struct NamedSchema {
  std::string name;
  arrow::SchemaPtr schema;
};

/// Reads every `[schema.<name>]` block of a TOML configuration (docs/configuration.md,
/// "Schemas"), in file order, with each schema's fields in file order. A field is either
///   `name = "<type tag>"`                                   (nullable)
///   `name = { type = "<type tag>", nullable = <bool>, metadata = { key = "value", ... } }`
/// with only `type` required; fields are nullable unless `nullable = false`. Type tags are those
/// of arrow::ParseTypeTag. Other top-level tables (`storage`, `streams`, ...) are ignored here.
/// TOML 1.1 multi-line inline tables are accepted. Pure function of the text; thread-safe.
///
/// Errors: first those of CheckTomlLimits (config/toml_limits.h: ResourceExhausted over 1 MiB,
/// InvalidArgument for keys nested too deep), checked before parsing. Then InvalidArgument: a
/// TOML syntax error gives "TOML syntax error at line L, column C: <description>". Otherwise
/// every problem found is reported, one per line, as "line L: schema 'S', field 'F': <problem>"
/// (for example an unknown type tag with the list of valid tags, a missing `type`, an unknown
/// key in a field table) or "line L: schema 'S': <problem>" (no fields, more than
/// kMaxSchemaFields fields).
Result<std::vector<NamedSchema>> ParseSchemas(std::string_view toml_text);

/// The schema named `schema_name`. Errors: those of ParseSchemas, or NotFound listing the names
/// of the schemas that the configuration does declare.
Result<arrow::SchemaPtr> LoadSchema(std::string_view toml_text, std::string_view schema_name);

}  // namespace higgins::config
