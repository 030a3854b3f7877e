#include "config/configuration.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <optional>

#include "config/config_internal.h"
#include "config/storage_options.h"
#include "config/toml_internal.h"

namespace higgins::config {
namespace internal {

std::string Quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

std::string QuotedList(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& name : names) {
    if (!list.empty()) list += ", ";
    list += Quoted(name);
  }
  return list;
}

bool IsValidName(std::string_view name) {
  if (name.empty() || name.size() > 255) return false;
  for (const char c : name) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string FieldNameProblem(std::string_view name) {
  if (name.empty()) return "a field name must not be empty";
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) {
      char code[8];
      std::snprintf(code, sizeof(code), "U+%04X", byte);
      return "field name " + TomlString(name) + " holds the control character " + code +
             " (field names must not hold U+0000 to U+001F or U+007F)";
    }
  }
  return "";
}

}  // namespace internal

namespace {

using internal::Entry;
using internal::Got;
using internal::InFileOrder;
using internal::Problems;
using internal::ReadWindow;

using internal::Quoted;
using internal::QuotedList;

/// The blocks of top-level table `section` ("storage", "schema", "streams") in file order,
/// each checked to be a table with a valid name; nullptr table for those that are not.
struct Block {
  std::string name;
  std::string where;  // "storage 'x'"
  const toml::node* node;
  const toml::table* table;
};

std::vector<Block> Blocks(const toml::table& root, std::string_view section, Problems* problems) {
  std::vector<Block> blocks;
  const toml::node* node = root.get(section);
  if (node == nullptr) return blocks;
  const toml::table* table = node->as_table();
  if (table == nullptr) {
    problems->Add(*node, section,
                  "must be a table of [" + std::string(section) + ".<name>] blocks");
    return blocks;
  }
  for (const Entry& entry : InFileOrder(*table)) {
    Block block{std::string(entry.key), std::string(section) + " " + Quoted(entry.key), entry.node,
                entry.node->as_table()};
    if (!internal::IsValidName(block.name)) {
      problems->Add(*entry.node, block.where,
                    "invalid name (" + std::string(internal::kNameRule) + ")");
      block.table = nullptr;
    } else if (block.table == nullptr) {
      problems->Add(*entry.node, block.where,
                    "must be a table ([" + std::string(section) + "." + block.name + "])");
    }
    blocks.push_back(std::move(block));
  }
  return blocks;
}

void CheckTopLevel(const toml::table& root, bool allow_topography, Problems* problems) {
  for (const Entry& entry : InFileOrder(root)) {
    if (entry.key == "storage" || entry.key == "schema" || entry.key == "streams") continue;
    if (allow_topography && entry.key == "topography") continue;
    const bool table = entry.node->is_table();
    problems->Add(*entry.node, (table ? "table " : "key ") + Quoted(entry.key),
                  std::string(table ? "unknown top-level table" : "unknown top-level key") +
                      " (a configuration holds only [storage.<name>], [schema.<name>] and "
                      "[streams.<name>] blocks)");
  }
}

// ---- storages --------------------------------------------------------------------------------

std::string StorageKeysOf(StorageKind kind) {
  std::string keys = "type";
  for (const internal::StorageOption& option : internal::StorageOptions(kind)) {
    keys += ", ";
    keys += option.key;
  }
  return keys;
}

/// An option's TOML value checked against its kind and bounds; nullopt after a problem.
std::optional<internal::OptionValue> StorageValue(const internal::StorageOption& option,
                                                  const toml::node& node, const std::string& where,
                                                  Problems* problems) {
  const std::string key = Quoted(option.key);
  switch (option.kind) {
    case internal::OptionKind::kString:
      if (const auto* text = node.as_string()) return text->get();
      problems->Add(node, where, key + " must be a string");
      return std::nullopt;
    case internal::OptionKind::kBool:
      if (const auto* flag = node.as_boolean()) return flag->get();
      problems->Add(node, where, key + " must be true or false");
      return std::nullopt;
    case internal::OptionKind::kInteger: {
      const auto* number = node.as_integer();
      if (number != nullptr && internal::IntegerInRange(option, number->get())) {
        return static_cast<uint64_t>(number->get());
      }
      problems->Add(node, where, key + " must be " + internal::IntegerRule(option) + Got(node));
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<StorageDecl> ReadStorage(const Block& block, Problems* problems) {
  const toml::table& table = *block.table;
  const toml::node* type_node = table.get("type");
  if (type_node == nullptr) {
    problems->Add(table, block.where, "missing 'type' (\"memory\", \"file\" or \"s3\")");
    return std::nullopt;
  }
  const auto* type = type_node->as_string();
  const std::optional<StorageKind> kind =
      type != nullptr ? internal::ParseStorageKind(type->get()) : std::nullopt;
  if (!kind) {
    problems->Add(*type_node, block.where,
                  "'type' must be \"memory\", \"file\" or \"s3\"" + Got(*type_node));
    return std::nullopt;
  }
  StorageDecl decl = internal::EmptyStorageDecl(block.name, *kind);
  bool ok = true;
  for (const Entry& entry : InFileOrder(table)) {
    if (entry.key == "type") continue;
    const internal::StorageOption* option = internal::FindStorageOption(*kind, entry.key);
    if (option == nullptr) {
      problems->Add(*entry.node, block.where,
                    "unknown key " + Quoted(entry.key) + " (a " +
                        std::string(StorageKindName(*kind)) + " storage takes " +
                        StorageKeysOf(*kind) + ")");
      ok = false;
      continue;
    }
    std::optional<internal::OptionValue> value =
        StorageValue(*option, *entry.node, block.where, problems);
    if (value) {
      internal::SetStorageOption(*option, std::move(*value), &decl);
    } else {
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return decl;
}

// ---- streams ---------------------------------------------------------------------------------

std::optional<StreamKind> ParseStreamKind(std::string_view type) {
  if (type == "map") return StreamKind::kMap;
  if (type == "reduce") return StreamKind::kReduce;
  if (type == "join") return StreamKind::kJoin;
  if (type == "window") return StreamKind::kWindow;
  return std::nullopt;
}

/// Whether `key` (one of base, fn, join, map, window) belongs to streams of `kind`, and a
/// description of the kinds it belongs to.
bool KeyApplies(std::string_view key, StreamKind kind, std::string_view* kinds) {
  if (key == "base") {
    *kinds = "derived streams: map, reduce, join and window";
    return kind != StreamKind::kSource;
  }
  if (key == "fn") {
    *kinds = "map and reduce streams";
    return kind == StreamKind::kMap || kind == StreamKind::kReduce;
  }
  if (key == "join" || key == "map") {
    *kinds = "join streams";
    return kind == StreamKind::kJoin;
  }
  *kinds = "window streams";
  return kind == StreamKind::kWindow;
}

std::optional<std::vector<std::string>> ReadJoin(const toml::node& node, const std::string& where,
                                                 Problems* problems) {
  const toml::array* array = node.as_array();
  if (array == nullptr) {
    problems->Add(node, where, "'join' must be an array of stream names");
    return std::nullopt;
  }
  if (array->empty()) {
    problems->Add(node, where, "'join' must name at least one stream");
    return std::nullopt;
  }
  std::vector<std::string> names;
  bool ok = true;
  for (const toml::node& element : *array) {
    const auto* name = element.as_string();
    if (name == nullptr || name->get().empty()) {
      problems->Add(element, where, "'join' must be an array of stream names");
      ok = false;
    } else if (std::find(names.begin(), names.end(), name->get()) != names.end()) {
      problems->Add(element, where, "'join' names " + Quoted(name->get()) + " twice");
      ok = false;
    } else {
      names.push_back(name->get());
    }
  }
  if (!ok) return std::nullopt;
  return names;
}

/// One `out = "participant.field"` of a join's map as written.
struct MapEntry {
  std::string out;
  std::string source;
  const toml::node* node;
};

std::optional<std::vector<MapEntry>> ReadMap(const toml::node& node, const std::string& where,
                                             Problems* problems) {
  const toml::table* table = node.as_table();
  if (table == nullptr) {
    problems->Add(node, where, "'map' must be a table { output_field = \"stream.field\", ... }");
    return std::nullopt;
  }
  if (table->empty()) {
    problems->Add(node, where, "'map' must map at least one field");
    return std::nullopt;
  }
  std::vector<MapEntry> map;
  bool ok = true;
  for (const Entry& entry : InFileOrder(*table)) {
    const auto* source = entry.node->as_string();
    const std::string what = "map " + Quoted(entry.key);
    if (source == nullptr) {
      problems->Add(*entry.node, where, what + " must be a string \"stream.field\"");
      ok = false;
      continue;
    }
    const std::string& value = source->get();
    const size_t dot = value.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == value.size()) {
      problems->Add(*entry.node, where,
                    what + " = " + Quoted(value) + " is not of the form \"stream.field\"");
      ok = false;
      continue;
    }
    map.push_back(MapEntry{std::string(entry.key), value, entry.node});
  }
  if (!ok) return std::nullopt;
  return map;
}

/// Resolves a join's map entries against its participants (the one tie rule: the longest
/// participant name followed by '.'); false after a problem.
bool ResolveJoinMap(const std::vector<MapEntry>& entries, const std::string& where,
                    StreamDecl* decl, Problems* problems) {
  std::vector<std::string> participants = {decl->base};
  participants.insert(participants.end(), decl->join.begin(), decl->join.end());
  bool ok = true;
  for (const MapEntry& entry : entries) {
    const std::string* participant = nullptr;
    for (const std::string& name : participants) {
      if (entry.source.size() > name.size() + 1 &&
          entry.source.compare(0, name.size(), name) == 0 && entry.source[name.size()] == '.' &&
          (participant == nullptr || name.size() > participant->size())) {
        participant = &name;
      }
    }
    if (participant == nullptr) {
      problems->Add(*entry.node, where,
                    "map " + Quoted(entry.out) + " = " + Quoted(entry.source) + ": " +
                        Quoted(entry.source.substr(0, entry.source.find('.'))) +
                        " is not a participant (the base " + Quoted(decl->base) +
                        (decl->join.empty() ? "" : " or a join stream: " + QuotedList(decl->join)) +
                        ")");
      ok = false;
      continue;
    }
    decl->map.push_back(
        JoinField{entry.out, *participant, entry.source.substr(participant->size() + 1)});
  }
  return ok;
}

/// Reads one of the string keys of a stream into `*out`; false after a problem.
bool ReadName(const Entry& entry, const std::string& where, std::string* out, Problems* problems) {
  const auto* text = entry.node->as_string();
  if (text == nullptr) {
    problems->Add(*entry.node, where, Quoted(entry.key) + " must be a string");
    return false;
  }
  if (text->get().empty()) {
    problems->Add(*entry.node, where, Quoted(entry.key) + " must not be empty");
    return false;
  }
  if (std::any_of(text->get().begin(), text->get().end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; })) {
    problems->Add(*entry.node, where,
                  Quoted(entry.key) +
                      " must not hold control characters (U+0000 to U+001F, U+007F) (got " +
                      internal::TomlString(text->get()) + ")");
    return false;
  }
  *out = text->get();
  return true;
}

/// Checks the keys that a stream's kind requires or forbids.
bool CheckKindKeys(const Block& block, StreamKind kind,
                   const std::map<std::string_view, const toml::node*>& present,
                   Problems* problems) {
  bool ok = true;
  std::vector<std::string_view> required;
  if (kind != StreamKind::kSource) required.push_back("base");
  if (kind == StreamKind::kMap || kind == StreamKind::kReduce) required.push_back("fn");
  if (kind == StreamKind::kJoin) required.insert(required.end(), {"join", "map"});
  if (kind == StreamKind::kWindow) required.push_back("window");
  for (std::string_view key : required) {
    if (present.count(key) == 0) {
      problems->Add(*block.table, block.where,
                    "a " + std::string(StreamKindName(kind)) + " stream needs " + Quoted(key));
      ok = false;
    }
  }
  for (std::string_view key : {"base", "fn", "join", "map", "window"}) {
    auto it = present.find(key);
    std::string_view kinds;
    if (it == present.end() || KeyApplies(key, kind, &kinds)) continue;
    problems->Add(*it->second, block.where,
                  Quoted(key) + " does not apply to a " + std::string(StreamKindName(kind)) +
                      " stream (it is for " + std::string(kinds) + ")");
    ok = false;
  }
  return ok;
}

std::optional<StreamDecl> ReadStream(const Block& block, Problems* problems) {
  const std::string& where = block.where;
  StreamDecl decl;
  decl.name = block.name;
  std::optional<StreamKind> kind = StreamKind::kSource;
  std::map<std::string_view, const toml::node*> present;
  std::optional<std::vector<MapEntry>> map;
  bool ok = true;
  for (const Entry& entry : InFileOrder(*block.table)) {
    const std::string_view key = entry.key;
    const toml::node& node = *entry.node;
    present[key] = &node;
    if (key == "schema") {
      ok &= ReadName(entry, where, &decl.schema, problems);
    } else if (key == "partition_key") {
      ok &= ReadName(entry, where, &decl.partition_key, problems);
    } else if (key == "storage") {
      ok &= ReadName(entry, where, &decl.storage, problems);
    } else if (key == "base") {
      ok &= ReadName(entry, where, &decl.base, problems);
    } else if (key == "fn") {
      ok &= ReadName(entry, where, &decl.fn, problems);
    } else if (key == "type") {
      const auto* type = node.as_string();
      kind = type != nullptr ? ParseStreamKind(type->get()) : std::nullopt;
      if (!kind) {
        problems->Add(node, where,
                      "'type' must be \"map\", \"reduce\", \"join\" or \"window\"" + Got(node) +
                          "; a source stream has no 'type'");
        ok = false;
      }
    } else if (key == "buckets") {
      const auto* number = node.as_integer();
      if (number != nullptr && number->get() >= 1 && number->get() <= kMaxBuckets) {
        decl.buckets = static_cast<uint32_t>(number->get());
      } else {
        problems->Add(
            node, where,
            "'buckets' must be an integer from 1 to " + std::to_string(kMaxBuckets) + Got(node));
        ok = false;
      }
    } else if (key == "join") {
      std::optional<std::vector<std::string>> join = ReadJoin(node, where, problems);
      ok &= join.has_value();
      if (join) decl.join = std::move(*join);
    } else if (key == "map") {
      map = ReadMap(node, where, problems);
      ok &= map.has_value();
    } else if (key == "window") {
      std::optional<WindowSpec> window = ReadWindow(node, where, problems);
      ok &= window.has_value();
      decl.window = window;
    } else {
      problems->Add(node, where, "unknown key " + Quoted(key));
      ok = false;
    }
  }
  for (std::string_view key : {"schema", "partition_key"}) {
    if (present.count(key) == 0) {
      problems->Add(*block.table, where, "missing " + Quoted(key));
      ok = false;
    }
  }
  if (kind) {
    decl.kind = *kind;
    ok &= CheckKindKeys(block, *kind, present, problems);
  }
  if (ok && map) ok = ResolveJoinMap(*map, where, &decl, problems);
  if (!ok) return std::nullopt;
  return decl;
}

}  // namespace

namespace internal {

Configuration ReadConfiguration(const toml::table& root, bool allow_topography,
                                Problems* problems) {
  Configuration config;
  CheckTopLevel(root, allow_topography, problems);
  for (const Block& block : Blocks(root, "storage", problems)) {
    if (block.table == nullptr) continue;
    if (std::optional<StorageDecl> storage = ReadStorage(block, problems)) {
      config.storages.push_back(std::move(*storage));
    }
  }
  // Schema blocks: the names here, the fields by ReadSchemas (which also reports a block that
  // is not a table).
  if (const toml::node* section = root.get("schema"); section != nullptr && section->is_table()) {
    for (const Entry& entry : InFileOrder(*section->as_table())) {
      if (!IsValidName(entry.key)) {
        problems->Add(*entry.node, "schema " + Quoted(entry.key),
                      "invalid name (" + std::string(kNameRule) + ")");
      }
    }
  }
  for (NamedSchema& schema : ReadSchemas(root, problems)) {
    config.schemas.push_back(SchemaDecl{std::move(schema.name), std::move(schema.schema)});
  }
  for (const Block& block : Blocks(root, "streams", problems)) {
    if (block.table == nullptr) continue;
    if (std::optional<StreamDecl> stream = ReadStream(block, problems)) {
      config.streams.push_back(std::move(*stream));
    }
  }
  return config;
}

}  // namespace internal

std::string_view StreamKindName(StreamKind kind) {
  switch (kind) {
    case StreamKind::kSource: return "source";
    case StreamKind::kMap: return "map";
    case StreamKind::kReduce: return "reduce";
    case StreamKind::kJoin: return "join";
    case StreamKind::kWindow: return "window";
  }
  return "unknown";
}

bool SchemaDecl::operator==(const SchemaDecl& other) const {
  if (name != other.name) return false;
  if (schema == other.schema) return true;
  return schema != nullptr && other.schema != nullptr && *schema == *other.schema;
}

Result<Configuration> ParseConfiguration(std::string_view toml_text) {
  HIGGINS_ASSIGN_OR_RETURN(const toml::table root,
                           internal::ParseToml(toml_text, internal::TextOrigin::kUser));
  internal::Problems problems;
  Configuration config = internal::ReadConfiguration(root, /*allow_topography=*/false, &problems);
  if (!problems.empty()) return problems.ToStatus(/*by_line=*/true);
  return config;
}

}  // namespace higgins::config
