#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "higgins/arrow/type.h"

namespace higgins::arrow {

/// Ordered key/value pairs (Arrow custom_metadata). Order is preserved; keys may repeat as in IPC.
using KeyValueMetadata = std::vector<std::pair<std::string, std::string>>;

/// A named column: type, nullability and metadata.
struct Field {
  std::string name;
  DataType type;
  bool nullable = true;
  KeyValueMetadata metadata;

  Field() = default;
  Field(std::string n, DataType t, bool is_nullable = true, KeyValueMetadata md = {})
      : name(std::move(n)), type(std::move(t)), nullable(is_nullable), metadata(std::move(md)) {}

  /// "name: type" plus " not null" when not nullable.
  std::string ToString() const;
  friend bool operator==(const Field&, const Field&) = default;
};

/// An ordered list of fields plus schema-level metadata. Immutable once shared (SchemaPtr).
class Schema {
 public:
  Schema() = default;
  explicit Schema(std::vector<Field> fields, KeyValueMetadata metadata = {})
      : fields_(std::move(fields)), metadata_(std::move(metadata)) {}

  const std::vector<Field>& fields() const { return fields_; }
  const Field& field(size_t i) const { return fields_[i]; }
  size_t num_fields() const { return fields_.size(); }
  const KeyValueMetadata& metadata() const { return metadata_; }

  /// Index of the first field named `name`, or nullopt.
  std::optional<size_t> FieldIndex(std::string_view name) const;

  /// Checks every field's type parameters. Duplicate names are allowed (Arrow allows them).
  Status Validate() const;

  /// One field per line: "name: type[ not null]".
  std::string ToString() const;

  friend bool operator==(const Schema&, const Schema&) = default;

 private:
  std::vector<Field> fields_;
  KeyValueMetadata metadata_;
};

using SchemaPtr = std::shared_ptr<const Schema>;

inline SchemaPtr MakeSchema(std::vector<Field> fields, KeyValueMetadata metadata = {}) {
  return std::make_shared<const Schema>(std::move(fields), std::move(metadata));
}

}  // namespace higgins::arrow
