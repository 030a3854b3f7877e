#pragma once

// Private to src/config: the pieces of Topography::Merge that live in their own files.

#include <string>
#include <string_view>
#include <vector>

#include "config/configuration.h"
#include "config/topography.h"

namespace higgins::config::internal {

/// `parts` separated by `separator`.
std::string Joined(const std::vector<std::string>& parts, std::string_view separator);

/// What differs between a declaration and the existing one of the same name, each as
/// "<what> <now> instead of <before>" (credentials only as "'<key>' differs (not shown)").
std::vector<std::string> SchemaDiff(const SchemaDecl& now, const SchemaDecl& before);
std::vector<std::string> StorageDiff(const StorageDecl& now, const StorageDecl& before);
std::vector<std::string> StreamDiff(const StreamDecl& now, const StreamDecl& before);
/// "<kind> '<name>' conflicts with the declaration already in the topography: <diffs>".
std::string Conflict(std::string_view kind, std::string_view name,
                     const std::vector<std::string>& diffs);

/// The problems of `stream` in the merged `topography` (the rules listed on Topography::Merge).
std::vector<std::string> StreamProblems(const Topography& topography, const StreamDecl& stream,
                                        const ModuleCheck& module_check);
/// Every cycle of base/join edges, "cycle: a -> b -> a".
std::vector<std::string> Cycles(const Topography& topography);

}  // namespace higgins::config::internal
