// Topography::Merge's conflict messages: what differs between a declaration and the one of the
// same name already in the topography.
#include <map>
#include <set>
#include <utility>

#include "config/config_internal.h"
#include "config/storage_options.h"
#include "config/topography_internal.h"
#include "higgins/arrow/type.h"

namespace higgins::config::internal {
namespace {

/// "<what> <now> instead of <before>" when the two differ.
template <typename T>
void Differs(std::string_view what, const T& now, const T& before, const std::string& now_text,
             const std::string& before_text, std::vector<std::string>* diffs) {
  if (now != before)
    diffs->push_back(std::string(what) + " " + now_text + " instead of " + before_text);
}

std::string FieldNames(const arrow::Schema& schema) {
  std::vector<std::string> names;
  for (const arrow::Field& field : schema.fields()) names.push_back(field.name);
  return "(" + Joined(names, ", ") + ")";
}

std::string WindowText(const std::optional<WindowSpec>& window) {
  return window ? internal::WindowToToml(*window) : "none";
}

/// An option value as a conflict message shows it: strings quoted like names, 'x'.
std::string DiffText(const OptionValue& value) {
  if (const std::string* text = std::get_if<std::string>(&value)) return Quoted(*text);
  return OptionValueToToml(value);
}

}  // namespace

std::string Joined(const std::vector<std::string>& parts, std::string_view separator) {
  std::string text;
  for (const std::string& part : parts) {
    if (!text.empty()) text += separator;
    text += part;
  }
  return text;
}

std::vector<std::string> SchemaDiff(const SchemaDecl& now, const SchemaDecl& before) {
  std::vector<std::string> diffs;
  if (now.schema == nullptr || before.schema == nullptr) {
    diffs.push_back("schema missing");
    return diffs;
  }
  const arrow::Schema& a = *now.schema;
  const arrow::Schema& b = *before.schema;
  Differs("fields", FieldNames(a), FieldNames(b), FieldNames(a), FieldNames(b), &diffs);
  if (!diffs.empty()) return diffs;
  for (size_t i = 0; i < a.num_fields(); ++i) {
    const arrow::Field& x = a.field(i);
    const arrow::Field& y = b.field(i);
    const std::string field = "field " + Quoted(x.name);
    Differs(field + " type", x.type, y.type, arrow::TypeTag(x.type), arrow::TypeTag(y.type),
            &diffs);
    Differs(field + " nullable", x.nullable, y.nullable, x.nullable ? "true" : "false",
            y.nullable ? "true" : "false", &diffs);
    if (x.metadata != y.metadata) diffs.push_back(field + " metadata differs");
  }
  if (a.metadata() != b.metadata()) diffs.push_back("schema metadata differs");
  return diffs;
}

std::vector<std::string> StorageDiff(const StorageDecl& now, const StorageDecl& before) {
  std::vector<std::string> diffs;
  Differs("type", now.kind(), before.kind(), Quoted(StorageKindName(now.kind())),
          Quoted(StorageKindName(before.kind())), &diffs);
  // key -> (now, before), each "" when unset; credentials by their key only.
  std::map<std::string_view, std::pair<std::string, std::string>> options;
  std::set<std::string_view> credentials;
  for (const auto& [option, value] : internal::SetStorageOptions(now)) {
    options[option->key].first = DiffText(value);
    if (option->credential) credentials.insert(option->key);
  }
  for (const auto& [option, value] : internal::SetStorageOptions(before)) {
    options[option->key].second = DiffText(value);
    if (option->credential) credentials.insert(option->key);
  }
  for (auto& [key, values] : options) {
    if (credentials.count(key) != 0) {
      // Say that it differs, never what it is: the message goes back to any client.
      if (values.first != values.second) diffs.push_back(Quoted(key) + " differs (not shown)");
      continue;
    }
    if (values.first.empty()) values.first = "absent";
    if (values.second.empty()) values.second = "absent";
    Differs(Quoted(key), values.first, values.second, values.first, values.second, &diffs);
  }
  return diffs;
}

std::vector<std::string> StreamDiff(const StreamDecl& now, const StreamDecl& before) {
  std::vector<std::string> diffs;
  Differs("type", now.kind, before.kind, Quoted(StreamKindName(now.kind)),
          Quoted(StreamKindName(before.kind)), &diffs);
  Differs("schema", now.schema, before.schema, Quoted(now.schema), Quoted(before.schema), &diffs);
  Differs("partition_key", now.partition_key, before.partition_key, Quoted(now.partition_key),
          Quoted(before.partition_key), &diffs);
  Differs("storage", now.storage, before.storage, Quoted(now.storage), Quoted(before.storage),
          &diffs);
  Differs("buckets", now.buckets, before.buckets, std::to_string(now.buckets),
          std::to_string(before.buckets), &diffs);
  Differs("base", now.base, before.base, Quoted(now.base), Quoted(before.base), &diffs);
  Differs("fn", now.fn, before.fn, Quoted(now.fn), Quoted(before.fn), &diffs);
  Differs("join", now.join, before.join, internal::JoinToToml(now.join),
          internal::JoinToToml(before.join), &diffs);
  Differs("map", now.map, before.map, internal::MapToToml(now.map), internal::MapToToml(before.map),
          &diffs);
  Differs("window", now.window, before.window, WindowText(now.window), WindowText(before.window),
          &diffs);
  return diffs;
}

std::string Conflict(std::string_view kind, std::string_view name,
                     const std::vector<std::string>& diffs) {
  return std::string(kind) + " " + Quoted(name) +
         " conflicts with the declaration already in the topography: " + Joined(diffs, "; ");
}

}  // namespace higgins::config::internal
