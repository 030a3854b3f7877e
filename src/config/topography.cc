// Topography::Merge and Delete, and lookups. The conflict messages are in topography_diff.cc,
// the validity checks in topography_checks.cc, the TOML writer in topography_toml.cc.
#include "config/topography.h"

#include <algorithm>
#include <utility>

#include "config/config_internal.h"
#include "config/storage_options.h"
#include "config/topography_internal.h"

namespace higgins::config {
namespace {

using internal::Conflict;
using internal::Cycles;
using internal::Joined;
using internal::Quoted;
using internal::QuotedList;
using internal::SchemaDiff;
using internal::StorageDiff;
using internal::StreamDiff;
using internal::StreamProblems;

}  // namespace

Result<MergeOutcome> Topography::Merge(const Configuration& config,
                                       const ModuleCheck& module_check) {
  Topography next = *this;
  MergeOutcome outcome;
  std::vector<std::string> problems;
  size_t conflicts = 0;  // how many of `problems` are conflicts with existing declarations
  for (const StorageDecl& storage : config.storages) {
    auto it = next.storages_.find(storage.name);
    if (const std::string problem = internal::StorageProblem(storage); !problem.empty()) {
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
    return Status(
        conflicts == problems.size() ? StatusCode::kAlreadyExists : StatusCode::kInvalidArgument,
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

StreamId Topography::IdOf(std::string_view name) const {
  auto it = stream_ids_.find(name);
  return it == stream_ids_.end() ? StreamId(0) : StreamId(it->second);
}

}  // namespace higgins::config
