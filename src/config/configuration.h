#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/storage_decl.h"
#include "higgins/arrow/schema.h"
#include "higgins/result.h"

namespace higgins::config {

/// Most bucket logs per stream (docs/architecture.md, "Storage: bucket logs"). Default:
/// kDefaultBuckets.
inline constexpr uint32_t kMaxBuckets = 1024;
inline constexpr uint32_t kDefaultBuckets = 1;

/// `[schema.<name>]` (see schema_config.h for the field syntax).
struct SchemaDecl {
  std::string name;
  arrow::SchemaPtr schema;
  /// Equal names and equal schemas (fields, types, nullability, metadata).
  bool operator==(const SchemaDecl& other) const;
};

enum class StreamKind { kSource, kMap, kReduce, kJoin, kWindow };
/// "source", "map", "reduce", "join", "window".
std::string_view StreamKindName(StreamKind kind);

/// `window = { type = "count" | "time", interval = "...", slide = "..." }`. For count windows
/// interval and slide are record counts; for time windows they are durations in milliseconds
/// (written "500ms", "10s", "5m", "1h"). slide == 0 means tumbling (slide = interval).
struct WindowSpec {
  enum class Type { kCount, kTime };
  Type type = Type::kCount;
  uint64_t interval = 0;
  uint64_t slide = 0;
  friend bool operator==(const WindowSpec&, const WindowSpec&) = default;
};

/// One entry `out = "participant.field"` of a join's `map`, resolved by the parser: the
/// participant is the longest of the join's participants (its base and its `join` streams)
/// that the value starts with followed by '.', since stream names may hold '.'.
struct JoinField {
  std::string out;          // a field of the join stream's schema
  std::string participant;  // the base or one of `join`
  std::string field;        // a field of the participant's schema
  /// The value as written, "participant.field".
  std::string source() const { return participant + "." + field; }
  friend bool operator==(const JoinField&, const JoinField&) = default;
};

/// `[streams.<name>]`. A source stream has no `type`/`base`.
struct StreamDecl {
  std::string name;
  StreamKind kind = StreamKind::kSource;
  std::string schema;
  std::string partition_key;
  /// Empty in a parsed configuration when the block has no `storage` key; the topography
  /// resolves it (the only storage, or an error when there are several) and stores the name.
  std::string storage;
  /// Bucket logs of the stream (`buckets = N`, 1..kMaxBuckets); 0 in a parsed configuration
  /// when absent, kDefaultBuckets once merged into a topography.
  uint32_t buckets = 0;
  std::string base;               // derived streams
  std::string fn;                 // map, reduce: the module name
  std::vector<std::string> join;  // join: other participants (the base always participates)
  /// join: the output fields' sources, in file order.
  std::vector<JoinField> map;
  std::optional<WindowSpec> window;  // window
  friend bool operator==(const StreamDecl&, const StreamDecl&) = default;
};

/// A parsed configuration, each list in file order.
struct Configuration {
  std::vector<StorageDecl> storages;
  std::vector<SchemaDecl> schemas;
  std::vector<StreamDecl> streams;
};

/// Parses a configuration (docs/configuration.md). TOML 1.1 multi-line inline tables are
/// accepted (the join example of the product README parses as written). Checks each block's
/// own shape: known top-level tables only (`storage`, `schema`, `streams`), known keys per
/// block, value types, type tags (via ParseSchemas), `type` of streams and storages, window
/// specs, bucket counts, names (1..255 bytes of [A-Za-z0-9_.-]). Cross-references (does the
/// schema exist?) are the topography's job, because they may point into earlier uploads.
///
/// Errors: those of CheckTomlLimits; InvalidArgument "TOML syntax error at line L, column C:
/// ..."; otherwise InvalidArgument listing every problem found, one per line, each starting
/// "line L: " and naming the block (for example "line 7: streams 'amount': unknown key 'fn2'").
Result<Configuration> ParseConfiguration(std::string_view toml_text);

}  // namespace higgins::config
