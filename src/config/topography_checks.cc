// Topography::Merge's validity checks of the merged whole (the rules listed on Merge).
#include <algorithm>
#include <limits>
#include <map>

#include "config/config_internal.h"
#include "config/topography_internal.h"
#include "higgins/arrow/type.h"

namespace higgins::config::internal {
namespace {

/// The problems of one join map entry `out = "participant.field"`.
void CheckJoinMapEntry(const Topography& topography, const StreamDecl& stream,
                       const SchemaDecl* schema, const JoinField& entry,
                       std::vector<std::string>* problems) {
  const std::string& out = entry.out;
  const std::string source = entry.source();
  const std::string what = "map " + Quoted(out) + " = " + Quoted(source);
  // The parser resolved the participant; a hand-built declaration may name anything.
  if (entry.participant != stream.base &&
      std::find(stream.join.begin(), stream.join.end(), entry.participant) == stream.join.end()) {
    problems->push_back(
        what + ": " + Quoted(entry.participant) + " is not a participant (the base " +
        Quoted(stream.base) +
        (stream.join.empty() ? "" : " or a join stream: " + QuotedList(stream.join)) + ")");
    return;
  }
  const std::string* participant = &entry.participant;
  const std::string& field = entry.field;
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
  if (storage != nullptr && input_storage != nullptr && storage->durable() &&
      !input_storage->durable()) {
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
                               [&](const JoinField& entry) { return entry.out == field.name; });
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
        if (p != nullptr && mapped->participant == name && mapped->field == p->partition_key) {
          from_key = true;
        }
      }
      if (!from_key) {
        problems->push_back("the join's partition key " + Quoted(field.name) +
                            " must be mapped from a participant's partition key (got " +
                            Quoted(mapped->source()) + ")");
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

/// The streams `stream` reads: its base and join streams.
std::vector<std::string_view> Inputs(const StreamDecl& stream) {
  std::vector<std::string_view> inputs;
  if (!stream.base.empty()) inputs.push_back(stream.base);
  inputs.insert(inputs.end(), stream.join.begin(), stream.join.end());
  return inputs;
}

}  // namespace

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
    for (const JoinField& entry : stream.map) {
      CheckJoinMapEntry(topography, stream, schema, entry, &problems);
    }
    CheckJoinShape(topography, stream, schema, &problems);
  }
  if (stream.kind == StreamKind::kWindow && base != nullptr &&
      base->partition_key != stream.partition_key) {
    problems.push_back(
        "a window stream has the partition key of its base: " + Quoted(base->partition_key) +
        " (of stream " + Quoted(base->name) + "), not " + Quoted(stream.partition_key));
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

}  // namespace higgins::config::internal
