// Topography::ToToml, Serialize and Deserialize, and the TOML text helpers of config_internal.h.

#include <cstdio>
#include <set>

#include "higgins/arrow/type.h"
#include "config/config_internal.h"
#include "config/storage_options.h"
#include "config/toml_internal.h"
#include "config/topography.h"

namespace higgins::config {
namespace internal {
namespace {

std::string FormatDuration(uint64_t ms) {
  if (ms % 3'600'000 == 0) return std::to_string(ms / 3'600'000) + "h";
  if (ms % 60'000 == 0) return std::to_string(ms / 60'000) + "m";
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + "s";
  return std::to_string(ms) + "ms";
}

std::string WindowSize(const WindowSpec& window, uint64_t size) {
  return window.type == WindowSpec::Type::kCount ? std::to_string(size)
                                                 : TomlString(FormatDuration(size));
}

}  // namespace

std::string TomlKey(std::string_view key) {
  bool bare = !key.empty();
  for (const char c : key) {
    bare = bare && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-');
  }
  return bare ? std::string(key) : TomlString(key);
}

std::string TomlString(std::string_view value) {
  std::string out = "\"";
  for (const char c : value) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\f': out += "\\f"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          char escape[8];
          std::snprintf(escape, sizeof(escape), "\\u%04x", static_cast<unsigned char>(c));
          out += escape;
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
  return out;
}

std::string WindowToToml(const WindowSpec& window) {
  std::string out = "{ type = ";
  out += window.type == WindowSpec::Type::kCount ? "\"count\"" : "\"time\"";
  out += ", interval = " + WindowSize(window, window.interval);
  if (window.slide != 0) out += ", slide = " + WindowSize(window, window.slide);
  return out + " }";
}

std::string MapToToml(const std::vector<JoinField>& map) {
  if (map.empty()) return "{}";
  std::string out = "{ ";
  for (size_t i = 0; i < map.size(); ++i) {
    if (i > 0) out += ", ";
    out += TomlKey(map[i].out) + " = " + TomlString(map[i].source());
  }
  return out + " }";
}

std::string JoinToToml(const std::vector<std::string>& names) {
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ", ";
    out += TomlString(names[i]);
  }
  return out + "]";
}

}  // namespace internal

namespace {

using internal::TomlKey;
using internal::TomlString;

void Header(std::string_view section, std::string_view name, std::string* out) {
  if (!out->empty()) out->push_back('\n');
  *out += "[" + std::string(section) + "." + TomlKey(name) + "]\n";
}

void Line(std::string_view key, const std::string& value, std::string* out) {
  *out += std::string(key) + " = " + value + "\n";
}

std::string FieldToToml(const arrow::Field& field) {
  std::string tag = TomlString(arrow::TypeTag(field.type));
  if (field.nullable && field.metadata.empty()) return tag;
  std::string out = "{ type = " + tag;
  if (!field.nullable) out += ", nullable = false";
  if (!field.metadata.empty()) {
    out += ", metadata = { ";
    for (size_t i = 0; i < field.metadata.size(); ++i) {
      if (i > 0) out += ", ";
      out += TomlKey(field.metadata[i].first) + " = " + TomlString(field.metadata[i].second);
    }
    out += " }";
  }
  return out + " }";
}

void StreamToToml(const StreamDecl& stream, std::string* out) {
  Header("streams", stream.name, out);
  if (stream.kind != StreamKind::kSource) {
    Line("type", TomlString(StreamKindName(stream.kind)), out);
    Line("base", TomlString(stream.base), out);
  }
  Line("schema", TomlString(stream.schema), out);
  Line("partition_key", TomlString(stream.partition_key), out);
  if (!stream.storage.empty()) Line("storage", TomlString(stream.storage), out);
  if (stream.buckets != 0) Line("buckets", std::to_string(stream.buckets), out);
  if (!stream.fn.empty()) Line("fn", TomlString(stream.fn), out);
  if (!stream.join.empty()) Line("join", internal::JoinToToml(stream.join), out);
  if (!stream.map.empty()) Line("map", internal::MapToToml(stream.map), out);
  if (stream.window) Line("window", internal::WindowToToml(*stream.window), out);
}

Status Corrupt(std::string_view problem) {
  return Status::Corruption("serialized topography: " + std::string(problem));
}

}  // namespace

std::string Topography::ToToml(bool redact_credentials) const {
  std::string out;
  for (const auto& [name, storage] : storages_) {
    Header("storage", name, &out);
    Line("type", TomlString(StorageKindName(storage.kind())), &out);
    for (const auto& [option, value] : internal::SetStorageOptions(storage)) {
      Line(option->key,
           redact_credentials && option->credential ? TomlString("<redacted>")
                                                    : internal::OptionValueToToml(value),
           &out);
    }
  }
  for (const auto& [name, schema] : schemas_) {
    Header("schema", name, &out);
    if (schema.schema == nullptr) continue;
    for (const arrow::Field& field : schema.schema->fields()) {
      Line(TomlKey(field.name), FieldToToml(field), &out);
    }
  }
  for (const auto& [name, stream] : streams_) StreamToToml(stream, &out);
  return out;
}

std::string Topography::Serialize() const {
  std::string out = ToToml();
  if (!out.empty()) out.push_back('\n');
  out += "[topography]\nnext_stream_id = " + std::to_string(next_stream_id_) + "\n";
  out += "\n[topography.stream_ids]\n";
  for (const auto& [name, id] : stream_ids_) Line(TomlKey(name), std::to_string(id), &out);
  return out;
}

Result<Topography> Topography::Deserialize(std::string_view text) {
  HIGGINS_ASSIGN_OR_RETURN(const toml::table root,
                           internal::ParseToml(text, internal::TextOrigin::kSelf));
  internal::Problems problems;
  const Configuration config =
      internal::ReadConfiguration(root, /*allow_topography=*/true, &problems);
  if (!problems.empty()) return problems.ToStatus(/*by_line=*/true);
  Topography topography;
  HIGGINS_RETURN_IF_ERROR(topography.Merge(config, nullptr).status());

  const toml::table* table = root["topography"].as_table();
  if (table == nullptr) return Corrupt("no [topography] table");
  for (const auto& [key, node] : *table) {
    if (key != "next_stream_id" && key != "stream_ids") {
      return Corrupt("unknown key '" + std::string(key.str()) + "' in [topography]");
    }
  }
  const auto* next_id = (*table)["next_stream_id"].as_integer();
  if (next_id == nullptr || next_id->get() < 1) {
    return Corrupt("'next_stream_id' must be a positive integer");
  }
  topography.next_stream_id_ = static_cast<uint64_t>(next_id->get());
  const toml::table* ids = (*table)["stream_ids"].as_table();
  if (ids == nullptr) return Corrupt("no [topography.stream_ids] table");
  topography.stream_ids_.clear();
  std::set<uint64_t> seen;
  for (const auto& [key, node] : *ids) {
    const std::string name(key.str());
    const auto* id = node.as_integer();
    if (topography.FindStream(name) == nullptr) {
      return Corrupt("id of stream '" + name + "', which is not declared");
    }
    if (id == nullptr || id->get() < 1 ||
        static_cast<uint64_t>(id->get()) >= topography.next_stream_id_) {
      return Corrupt("the id of stream '" + name + "' must be an integer from 1 to " +
                     std::to_string(topography.next_stream_id_ - 1));
    }
    if (!seen.insert(static_cast<uint64_t>(id->get())).second) {
      return Corrupt("stream id " + std::to_string(id->get()) + " is used twice");
    }
    topography.stream_ids_.emplace(name, static_cast<uint64_t>(id->get()));
  }
  for (const auto& [name, stream] : topography.streams_) {
    if (topography.stream_ids_.count(name) == 0) {
      return Corrupt("stream '" + name + "' has no id");
    }
  }
  return topography;
}

}  // namespace higgins::config
