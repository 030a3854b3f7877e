#include "config/topography.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "higgins/arrow/type.h"
#include "config/config_internal.h"

namespace higgins::config {
namespace {

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

std::string Joined(const std::vector<std::string>& parts, std::string_view separator) {
  std::string text;
  for (const std::string& part : parts) {
    if (!text.empty()) text += separator;
    text += part;
  }
  return text;
}

// ---- what differs between two declarations ---------------------------------------------------

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
  Differs("type", now.type, before.type, Quoted(now.type), Quoted(before.type), &diffs);
  std::map<std::string, std::pair<std::string, std::string>> options;
  for (const auto& [key, value] : now.options) options[key].first = Quoted(value);
  for (const auto& [key, value] : before.options) options[key].second = Quoted(value);
  for (auto& [key, values] : options) {
    if (internal::IsCredentialOption(key)) {
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

std::string WindowText(const std::optional<WindowSpec>& window) {
  return window ? internal::WindowToToml(*window) : "none";
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

// ---- validity of the merged whole ------------------------------------------------------------

/// What is wrong with a storage declaration that did not come from ParseConfiguration, or "".
std::string StorageProblem(const StorageDecl& storage) {
  if (!internal::IsStorageType(storage.type)) return "unknown type " + Quoted(storage.type);
  for (const auto& [key, value] : storage.options) {
    if (internal::FindStorageOption(storage.type, key) == nullptr) {
      return "unknown key " + Quoted(key) + " for a " + storage.type + " storage";
    }
  }
  return "";
}

/// The problems of one join map entry `out = "participant.field"`.
void CheckJoinMapEntry(const Topography& topography, const StreamDecl& stream,
                       const SchemaDecl* schema, const std::string& out, const std::string& source,
                       std::vector<std::string>* problems) {
  const std::string what = "map " + Quoted(out) + " = " + Quoted(source);
  std::vector<std::string> participants = {stream.base};
  participants.insert(participants.end(), stream.join.begin(), stream.join.end());
  // Stream names may contain '.': the participant is the longest one the value starts with.
  const std::string* participant = nullptr;
  for (const std::string& name : participants) {
    if (source.size() > name.size() + 1 && source.compare(0, name.size(), name) == 0 &&
        source[name.size()] == '.' &&
        (participant == nullptr || name.size() > participant->size())) {
      participant = &name;
    }
  }
  if (participant == nullptr) {
    problems->push_back(
        what + ": " + Quoted(source.substr(0, source.find('.'))) +
        " is not a participant (the base " + Quoted(stream.base) +
        (stream.join.empty() ? "" : " or a join stream: " + QuotedList(stream.join)) + ")");
    return;
  }
  const std::string field = source.substr(participant->size() + 1);
  const StreamDecl* input = topography.FindStream(*participant);
  const SchemaDecl* input_schema = input ? topography.FindSchema(input->schema) : nullptr;
  if (input_schema == nullptr || input_schema->schema == nullptr) return;  // reported already
  std::optional<size_t> input_index = input_schema->schema->FieldIndex(field);
  if (!input_index) {
    problems->push_back(what + ": stream " + Quoted(*participant) + " (schema " +
                        Quoted(input->schema) + ") has no field " + Quoted(field));
    return;
  }
  if (schema == nullptr || schema->schema == nullptr) return;
  std::optional<size_t> out_index = schema->schema->FieldIndex(out);
  if (!out_index) {
    problems->push_back("map " + Quoted(out) + ": schema " + Quoted(stream.schema) +
                        " has no field " + Quoted(out));
    return;
  }
  const arrow::DataType& from = input_schema->schema->field(*input_index).type;
  const arrow::DataType& to = schema->schema->field(*out_index).type;
  if (from != to) {
    problems->push_back(what + ": type " + arrow::TypeTag(from) + " of " + Quoted(source) +
                        " differs from type " + arrow::TypeTag(to) + " of field " + Quoted(out) +
                        " in schema " + Quoted(stream.schema));
  }
}

/// The shape a parsed configuration guarantees, checked again for hand-built ones.
void CheckShape(const StreamDecl& stream, std::vector<std::string>* problems) {
  const std::string kind(StreamKindName(stream.kind));
  if (stream.kind == StreamKind::kSource) {
    if (!stream.base.empty() || !stream.fn.empty() || !stream.join.empty() || !stream.map.empty() ||
        stream.window) {
      problems->push_back("a source stream takes no base, fn, join, map or window");
    }
    return;
  }
  if (stream.base.empty()) problems->push_back("a " + kind + " stream needs 'base'");
  const bool udf = stream.kind == StreamKind::kMap || stream.kind == StreamKind::kReduce;
  if (udf && stream.fn.empty()) problems->push_back("a " + kind + " stream needs 'fn'");
  if (stream.kind == StreamKind::kJoin && (stream.join.empty() || stream.map.empty())) {
    problems->push_back("a join stream needs 'join' and 'map'");
  }
  if (stream.kind == StreamKind::kWindow && !stream.window) {
    problems->push_back("a window stream needs 'window'");
  }
  // Window bounds are int64 timestamps or offsets: start + interval must not overflow uint64.
  constexpr auto kMaxWindow = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (stream.window && (stream.window->interval == 0 || stream.window->interval > kMaxWindow)) {
    problems->push_back("a window's interval must be from 1 to " + std::to_string(kMaxWindow) +
                        " (got " + std::to_string(stream.window->interval) + ")");
  }
}

/// The rules a map or reduce stream's schema and storage follow (see Topography::Merge).
/// A derived stream on durable storage needs its input (`role`: "the base", "participant")
/// on durable storage too, or after a restart it would be ahead of the input.
void CheckDurableInput(const Topography& topography, const StreamDecl& stream,
                       const StreamDecl& input, const std::string& role,
                       std::vector<std::string>* problems) {
  const StorageDecl* storage = topography.FindStorage(stream.storage);
  const StorageDecl* input_storage = topography.FindStorage(input.storage);
  if (storage != nullptr && input_storage != nullptr && storage->type != "memory" &&
      input_storage->type == "memory") {
    problems->push_back("storage " + Quoted(stream.storage) + " keeps records across restarts " +
                        "but " + role + " " + Quoted(input.name) + " is on memory storage " +
                        Quoted(input.storage) + ": put both on memory storage, or " + role +
                        " on durable storage");
  }
}

/// The join as a whole (its map entries are checked one by one by CheckJoinMapEntry): every
/// output field is mapped; the partition key from a participant's partition key; participants'
/// partition keys of the output key's type (records are matched by key value); other output
/// fields nullable (a participant without a record yet contributes nulls); participants on
/// durable storage when the join is; no window stream as a participant (windows are views).
void CheckJoinShape(const Topography& topography, const StreamDecl& stream,
                    const SchemaDecl* schema, std::vector<std::string>* problems) {
  if (schema == nullptr || schema->schema == nullptr) return;
  const arrow::Schema& out = *schema->schema;
  std::vector<std::string> participants = {stream.base};
  participants.insert(participants.end(), stream.join.begin(), stream.join.end());
  std::optional<size_t> out_key = out.FieldIndex(stream.partition_key);
  for (size_t f = 0; f < out.num_fields(); ++f) {
    const arrow::Field& field = out.field(f);
    auto mapped = std::find_if(stream.map.begin(), stream.map.end(),
                               [&](const auto& entry) { return entry.first == field.name; });
    if (mapped == stream.map.end()) {
      problems->push_back("field " + Quoted(field.name) + " of schema " + Quoted(stream.schema) +
                          " is not in the join's map: map every output field to " +
                          "\"participant.field\"");
      continue;
    }
    if (out_key && f == *out_key) {
      bool from_key = false;
      for (const std::string& name : participants) {
        const StreamDecl* p = topography.FindStream(name);
        if (p != nullptr && mapped->second == name + "." + p->partition_key) from_key = true;
      }
      if (!from_key) {
        problems->push_back("the join's partition key " + Quoted(field.name) +
                            " must be mapped from a participant's partition key (got " +
                            Quoted(mapped->second) + ")");
      }
    } else if (!field.nullable) {
      problems->push_back("field " + Quoted(field.name) + " of schema " + Quoted(stream.schema) +
                          " must be nullable: it is null while its participant has no record " +
                          "for the key");
    }
  }
  for (const std::string& name : participants) {
    const StreamDecl* p = topography.FindStream(name);
    if (p == nullptr) continue;  // reported already
    CheckDurableInput(topography, stream, *p, "participant", problems);
    if (p->kind == StreamKind::kWindow) {
      problems->push_back("participant " + Quoted(name) + " is a window stream; windows are " +
                          "views computed at query time and cannot feed a join");
    }
    const SchemaDecl* p_schema = topography.FindSchema(p->schema);
    if (!out_key || p_schema == nullptr || p_schema->schema == nullptr) continue;
    std::optional<size_t> p_key = p_schema->schema->FieldIndex(p->partition_key);
    if (p_key && p_schema->schema->field(*p_key).type != out.field(*out_key).type) {
      problems->push_back("participant " + Quoted(name) + " has partition key " +
                          Quoted(p->partition_key) + " of type " +
                          arrow::TypeTag(p_schema->schema->field(*p_key).type) +
                          ", not the join's " + arrow::TypeTag(out.field(*out_key).type) +
                          ": records are matched by key value, so the types must be equal");
    }
  }
}

void CheckUdfSchema(const Topography& topography, const StreamDecl& stream, const StreamDecl& base,
                    std::vector<std::string>* problems) {
  const SchemaDecl* schema = topography.FindSchema(stream.schema);
  const SchemaDecl* base_schema = topography.FindSchema(base.schema);
  if (schema == nullptr || base_schema == nullptr || !schema->schema || !base_schema->schema) {
    return;
  }
  const arrow::Schema& out = *schema->schema;
  const arrow::Schema& in = *base_schema->schema;
  auto key = out.FieldIndex(stream.partition_key);
  auto base_key = in.FieldIndex(base.partition_key);
  if (key && base_key && !(out.field(*key).type == in.field(*base_key).type)) {
    problems->push_back("partition key " + Quoted(stream.partition_key) + " has type " +
                        arrow::TypeTag(out.field(*key).type) + "; it must have the type of " +
                        Quoted(base.name) + "'s partition key " + Quoted(base.partition_key) +
                        " (" + arrow::TypeTag(in.field(*base_key).type) + ")");
  }
  for (size_t f = 0; f < out.num_fields(); ++f) {
    const arrow::Field& field = out.field(f);
    if (key && f == *key) continue;
    if (stream.kind == StreamKind::kMap) {
      if (!field.nullable) {
        problems->push_back("field " + Quoted(field.name) + " of schema " + Quoted(stream.schema) +
                            " must be nullable in a map stream: a record whose UDF call fails "
                            "is stored with every field but the partition key null");
      }
      continue;
    }
    auto from = in.FieldIndex(field.name);
    if (from && !(in.field(*from).type == field.type)) {
      problems->push_back("field " + Quoted(field.name) + " has type " +
                          arrow::TypeTag(field.type) + " in schema " + Quoted(stream.schema) +
                          " and " + arrow::TypeTag(in.field(*from).type) + " in " +
                          Quoted(base.schema) + ": a reduce stream's first record of a " +
                          "partition is its base's first record, so the types must match");
    } else if (from && in.field(*from).nullable && !field.nullable) {
      problems->push_back("field " + Quoted(field.name) + " is not nullable in schema " +
                          Quoted(stream.schema) + " but nullable in " + Quoted(base.schema) +
                          ": a reduce stream's first record of a partition is its base's first "
                          "record, which may hold a null there");
    } else if (!from && !field.nullable) {
      problems->push_back("field " + Quoted(field.name) + " of schema " + Quoted(stream.schema) +
                          " is not in " + Quoted(base.schema) + " and not nullable: a reduce " +
                          "stream's first record of a partition is its base's first record");
    }
  }
  CheckDurableInput(topography, stream, base, "the base", problems);
}

/// The problems of `stream` in the merged `topography`, each as "<problem>".
std::vector<std::string> StreamProblems(const Topography& topography, const StreamDecl& stream,
                                        const ModuleCheck& module_check) {
  std::vector<std::string> problems;
  CheckShape(stream, &problems);
  const SchemaDecl* schema = topography.FindSchema(stream.schema);
  if (schema == nullptr) {
    problems.push_back("unknown schema " + Quoted(stream.schema));
  } else if (schema->schema != nullptr) {
    std::optional<size_t> key = schema->schema->FieldIndex(stream.partition_key);
    if (!key) {
      problems.push_back("partition key " + Quoted(stream.partition_key) +
                         " is not a field of schema " + Quoted(stream.schema));
    } else {
      const arrow::DataType& type = schema->schema->field(*key).type;
      if (!type.is_string() && !type.is_integer()) {
        problems.push_back("partition key " + Quoted(stream.partition_key) + " has type " +
                           arrow::TypeTag(type) +
                           "; it must be string, large_string or an integer type");
      }
    }
  }
  if (!stream.storage.empty() && topography.FindStorage(stream.storage) == nullptr) {
    problems.push_back("unknown storage " + Quoted(stream.storage));
  }
  if (stream.buckets < 1 || stream.buckets > kMaxBuckets) {
    problems.push_back("buckets must be from 1 to " + std::to_string(kMaxBuckets) + " (got " +
                       std::to_string(stream.buckets) + ")");
  }
  if (stream.kind == StreamKind::kSource) return problems;
  const StreamDecl* base = topography.FindStream(stream.base);
  if (!stream.base.empty() && base == nullptr) {
    problems.push_back("unknown base stream " + Quoted(stream.base));
  }
  if (base != nullptr && base->kind == StreamKind::kWindow && stream.kind != StreamKind::kJoin) {
    problems.push_back("base " + Quoted(stream.base) + " is a window stream; windows are views " +
                       "computed at query time and cannot feed another derived stream");
  }
  if ((stream.kind == StreamKind::kMap || stream.kind == StreamKind::kReduce)) {
    if (!stream.fn.empty() && module_check) {
      std::string problem = module_check(stream.fn, stream.kind);
      if (!problem.empty()) problems.push_back(std::move(problem));
    }
    if (base != nullptr) CheckUdfSchema(topography, stream, *base, &problems);
  }
  if (stream.kind == StreamKind::kJoin) {
    for (const std::string& name : stream.join) {
      if (topography.FindStream(name) == nullptr) {
        problems.push_back("unknown join stream " + Quoted(name));
      }
    }
    for (const auto& [out, source] : stream.map) {
      CheckJoinMapEntry(topography, stream, schema, out, source, &problems);
    }
    CheckJoinShape(topography, stream, schema, &problems);
  }
  if (stream.kind == StreamKind::kWindow && base != nullptr &&
      base->partition_key != stream.partition_key) {
    problems.push_back("a window stream has the partition key of its base: " +
                       Quoted(base->partition_key) + " (of stream " + Quoted(base->name) +
                       "), not " + Quoted(stream.partition_key));
  }
  if (stream.kind == StreamKind::kWindow && base != nullptr && base->schema != stream.schema) {
    const SchemaDecl* base_schema = topography.FindSchema(base->schema);
    const bool equal = schema != nullptr && base_schema != nullptr && schema->schema &&
                       base_schema->schema && *schema->schema == *base_schema->schema;
    if (!equal) {
      problems.push_back("a window stream has the schema of its base: " + Quoted(base->schema) +
                         " (of stream " + Quoted(base->name) + "), not " + Quoted(stream.schema));
    }
  }
  return problems;
}

/// The streams `stream` reads: its base and join streams.
std::vector<std::string_view> Inputs(const StreamDecl& stream) {
  std::vector<std::string_view> inputs;
  if (!stream.base.empty()) inputs.push_back(stream.base);
  inputs.insert(inputs.end(), stream.join.begin(), stream.join.end());
  return inputs;
}

/// Every cycle of base/join edges, "cycle: a -> b -> a", found by an iterative depth-first
/// search in name order (no recursion: a configuration may chain thousands of streams).
std::vector<std::string> Cycles(const Topography& topography) {
  enum class Mark { kNew, kOnPath, kDone };
  std::map<std::string_view, Mark> marks;
  std::vector<std::string> cycles;
  struct Frame {
    std::string_view name;
    std::vector<std::string_view> inputs;
    size_t next = 0;
  };
  for (const auto& [start, start_decl] : topography.streams()) {
    if (marks[start] != Mark::kNew) continue;
    std::vector<Frame> path;
    path.push_back(Frame{start, Inputs(start_decl)});
    marks[start] = Mark::kOnPath;
    while (!path.empty()) {
      Frame& top = path.back();
      if (top.next == top.inputs.size()) {
        marks[top.name] = Mark::kDone;
        path.pop_back();
        continue;
      }
      const std::string_view input = top.inputs[top.next++];
      const StreamDecl* decl = topography.FindStream(input);
      if (decl == nullptr) continue;
      const Mark mark = marks[decl->name];
      if (mark == Mark::kOnPath) {
        auto first = std::find_if(path.begin(), path.end(),
                                  [&](const Frame& frame) { return frame.name == input; });
        std::string cycle = "cycle: ";
        for (auto it = first; it != path.end(); ++it) cycle += std::string(it->name) + " -> ";
        cycles.push_back(cycle + std::string(input));
      } else if (mark == Mark::kNew) {
        marks[decl->name] = Mark::kOnPath;
        path.push_back(Frame{decl->name, Inputs(*decl)});
      }
    }
  }
  return cycles;
}

}  // namespace

Result<MergeOutcome> Topography::Merge(const Configuration& config,
                                       const ModuleCheck& module_check) {
  Topography next = *this;
  MergeOutcome outcome;
  std::vector<std::string> problems;
  size_t conflicts = 0;  // how many of `problems` are conflicts with existing declarations
  for (const StorageDecl& storage : config.storages) {
    auto it = next.storages_.find(storage.name);
    if (const std::string problem = StorageProblem(storage); !problem.empty()) {
      problems.push_back("storage " + Quoted(storage.name) + ": " + problem);
    } else if (it == next.storages_.end()) {
      next.storages_.emplace(storage.name, storage);
      outcome.added_storages.push_back(storage.name);
    } else if (!(it->second == storage)) {
      ++conflicts;
      problems.push_back(Conflict("storage", storage.name, StorageDiff(storage, it->second)));
    }
  }
  for (const SchemaDecl& schema : config.schemas) {
    auto it = next.schemas_.find(schema.name);
    std::string field_problem;
    for (size_t i = 0; schema.schema != nullptr && i < schema.schema->num_fields(); ++i) {
      field_problem = internal::FieldNameProblem(schema.schema->field(i).name);
      if (!field_problem.empty()) break;
    }
    if (schema.schema == nullptr || schema.schema->num_fields() == 0) {
      problems.push_back("schema " + Quoted(schema.name) + ": has no fields");
    } else if (!field_problem.empty()) {
      problems.push_back("schema " + Quoted(schema.name) + ": " + field_problem);
    } else if (it == next.schemas_.end()) {
      next.schemas_.emplace(schema.name, schema);
      outcome.added_schemas.push_back(schema.name);
    } else if (!(it->second == schema)) {
      ++conflicts;
      problems.push_back(Conflict("schema", schema.name, SchemaDiff(schema, it->second)));
    }
  }
  for (const StreamDecl& declared : config.streams) {
    StreamDecl stream = declared;
    const std::string where = "streams " + Quoted(stream.name);
    if (stream.buckets == 0) stream.buckets = kDefaultBuckets;
    auto existing = next.streams_.find(stream.name);
    if (stream.storage.empty() && existing != next.streams_.end()) {
      // Re-uploading a declaration that leaves the storage to the default keeps the storage the
      // stream already has, even when more storages were declared since.
      stream.storage = existing->second.storage;
    }
    if (stream.storage.empty()) {
      if (next.storages_.size() == 1) {
        stream.storage = next.storages_.begin()->first;
      } else if (next.storages_.empty()) {
        problems.push_back(where +
                           ": no 'storage' given and no storage is declared (add a "
                           "[storage.<name>] block)");
      } else {
        std::vector<std::string> names;
        for (const auto& [name, storage] : next.storages_) names.push_back(name);
        problems.push_back(where + ": no 'storage' given and several storages are declared; " +
                           "name one of " + QuotedList(names));
      }
    }
    auto it = next.streams_.find(stream.name);
    if (it != next.streams_.end()) {
      if (!stream.storage.empty() && !(it->second == stream)) {
        ++conflicts;
      problems.push_back(Conflict("streams", stream.name, StreamDiff(stream, it->second)));
      }
      continue;
    }
    outcome.added_streams.push_back(stream.name);
    next.streams_.emplace(stream.name, std::move(stream));
  }
  for (const std::string& name : outcome.added_streams) {
    for (const std::string& problem : StreamProblems(next, next.streams_.at(name), module_check)) {
      problems.push_back("streams " + Quoted(name) + ": " + problem);
    }
  }
  for (std::string& cycle : Cycles(next)) problems.push_back(std::move(cycle));
  if (!problems.empty()) {
    // A request whose only problems are conflicts with existing declarations is AlreadyExists
    // (docs/protocol.md, ErrorCode); anything else wrong with it makes it InvalidArgument.
    return Status(conflicts == problems.size() ? StatusCode::kAlreadyExists
                                               : StatusCode::kInvalidArgument,
                  Joined(problems, "\n"));
  }
  for (const std::string& name : outcome.added_streams) {
    next.stream_ids_[name] = next.next_stream_id_++;
  }
  *this = std::move(next);
  return outcome;
}

Status Topography::Delete(std::string_view key) {
  enum class Kind { kStream, kSchema, kStorage };
  Kind kind = Kind::kStream;
  std::string_view name = key;
  std::string_view label = "streams";
  if (key.starts_with("streams.")) {
    name.remove_prefix(8);
  } else if (key.starts_with("schema.")) {
    kind = Kind::kSchema;
    label = "schema";
    name.remove_prefix(7);
  } else if (key.starts_with("storage.")) {
    kind = Kind::kStorage;
    label = "storage";
    name.remove_prefix(8);
  }
  const bool found = kind == Kind::kStream   ? FindStream(name) != nullptr
                     : kind == Kind::kSchema ? FindSchema(name) != nullptr
                                             : FindStorage(name) != nullptr;
  const std::string what = std::string(label) + " " + Quoted(name);
  if (!found) return Status::NotFound(what + " is not in the topography");
  std::vector<std::string> users;
  for (const auto& [user, stream] : streams_) {
    bool uses = false;
    switch (kind) {
      case Kind::kStream:
        uses = user != name &&
               (stream.base == name ||
                std::find(stream.join.begin(), stream.join.end(), name) != stream.join.end());
        break;
      case Kind::kSchema: uses = stream.schema == name; break;
      case Kind::kStorage: uses = stream.storage == name; break;
    }
    if (uses) users.push_back(user);
  }
  if (!users.empty()) {
    return Status::InvalidArgument("cannot delete " + what + ": used by streams " +
                                   QuotedList(users));
  }
  switch (kind) {
    case Kind::kStream:
      streams_.erase(streams_.find(name));
      if (auto id = stream_ids_.find(name); id != stream_ids_.end()) stream_ids_.erase(id);
      break;
    case Kind::kSchema: schemas_.erase(schemas_.find(name)); break;
    case Kind::kStorage: storages_.erase(storages_.find(name)); break;
  }
  return Status::OK();
}

const StorageDecl* Topography::FindStorage(std::string_view name) const {
  auto it = storages_.find(name);
  return it == storages_.end() ? nullptr : &it->second;
}

const SchemaDecl* Topography::FindSchema(std::string_view name) const {
  auto it = schemas_.find(name);
  return it == schemas_.end() ? nullptr : &it->second;
}

const StreamDecl* Topography::FindStream(std::string_view name) const {
  auto it = streams_.find(name);
  return it == streams_.end() ? nullptr : &it->second;
}

uint64_t Topography::StreamId(std::string_view name) const {
  auto it = stream_ids_.find(name);
  return it == stream_ids_.end() ? 0 : it->second;
}

}  // namespace higgins::config
