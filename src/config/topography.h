#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/ids.h"
#include "config/configuration.h"
#include "higgins/result.h"

namespace higgins::config {

/// Checks the UDF module a map or reduce stream names: returns "" when a module of that name
/// was uploaded and its `run` suits `kind`, else the problem (for example "module 'double' has
/// not been uploaded (upload it before the configuration that uses it)").
using ModuleCheck = std::function<std::string(std::string_view name, StreamKind kind)>;

/// What a merge changed.
struct MergeOutcome {
  std::vector<std::string> added_storages;
  std::vector<std::string> added_schemas;
  std::vector<std::string> added_streams;
};

/// The persisted set of every declaration (docs/architecture.md, "The model"): storages, schemas
/// and streams, each stream with a numeric id that is never reused (so a stream deleted and
/// declared again does not see the old stream's records). A value type: copy, modify the copy, then
/// swap it in. Not thread-safe.
class Topography {
 public:
  /// Merges `config` into this topography. On success the topography holds the union and the
  /// outcome lists what was new; on error nothing changes. Rules:
  ///  - a declaration whose name is new is added; one identical to the existing declaration of
  ///    that name is a no-op; one that differs is an error ("streams 'x' conflicts with the
  ///    declaration already in the topography: <what differs>");
  ///  - a stream without `storage` gets the only storage of the merged topography (error when
  ///    there are none, or several: "name one of 'a', 'b'"); without `buckets`, kDefaultBuckets;
  ///  - the merged whole must be valid: every stream's schema and storage exist; its partition
  ///    key is a field of its schema of type string, large_string or an integer type; a derived
  ///    stream's base and join streams exist; map/reduce name a module that `module_check`
  ///    accepts (a null check accepts every module); a map or reduce stream's partition key has
  ///    the type of its base's; a map stream's other fields are nullable (a record whose UDF
  ///    call fails is stored with them null); every field of a reduce stream is a field of
  ///    the same type in its base's schema or is nullable (a partition's first base record is
  ///    its first reduce record); a map or reduce stream on durable storage has a base on
  ///    durable storage (else after a restart the derived stream would be ahead of its base); join
  ///    `map` values are "stream.field" naming a participant (the base or a join stream) and a
  ///    field of its schema, keys are fields of the derived schema with the same type; window
  ///    streams have a window and the base's schema; derived streams form no cycle ("cycle: a -> b
  ///    -> a").
  /// Errors: InvalidArgument listing every problem, one per line.
  Result<MergeOutcome> Merge(const Configuration& config, const ModuleCheck& module_check);

  /// Removes a declaration. `key` is "streams.<name>", "schema.<name>", "storage.<name>", or a
  /// bare stream name. Errors: NotFound; InvalidArgument when other declarations still refer
  /// to it (naming them).
  Status Delete(std::string_view key);

  /// The topography as a configuration: `[storage.*]`, `[schema.*]`, `[streams.*]` blocks in
  /// name order, with resolved storages and buckets written out. ParseConfiguration of this text
  /// and Merge into an empty topography give an equal topography (ids aside).
  ///
  /// `redact_credentials` replaces the value of every credential option (s3's
  /// `aws_access_key_id` and `aws_secret_access_key`) with "<redacted>": the form shown to
  /// clients (get-topography). Serialize keeps them, for the broker's restart.
  std::string ToToml(bool redact_credentials = false) const;

  /// ToToml() plus a `[topography]` table holding stream ids and the next id: the form kept
  /// under --dir. Deserialize reads it back.
  std::string Serialize() const;
  /// Errors: those of ParseConfiguration and Merge (module references are not re-checked),
  /// Corruption for a missing or malformed `[topography]` table.
  static Result<Topography> Deserialize(std::string_view text);

  const StorageDecl* FindStorage(std::string_view name) const;
  const SchemaDecl* FindSchema(std::string_view name) const;
  const StreamDecl* FindStream(std::string_view name) const;
  /// The stream's id, or 0 when there is no such stream. Ids start at 1.
  StreamId IdOf(std::string_view name) const;

  const std::map<std::string, StorageDecl, std::less<>>& storages() const { return storages_; }
  const std::map<std::string, SchemaDecl, std::less<>>& schemas() const { return schemas_; }
  const std::map<std::string, StreamDecl, std::less<>>& streams() const { return streams_; }

  friend bool operator==(const Topography&, const Topography&) = default;

 private:
  std::map<std::string, StorageDecl, std::less<>> storages_;
  std::map<std::string, SchemaDecl, std::less<>> schemas_;
  std::map<std::string, StreamDecl, std::less<>> streams_;
  std::map<std::string, uint64_t, std::less<>> stream_ids_;
  uint64_t next_stream_id_ = 1;
};

}  // namespace higgins::config
