#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "higgins/result.h"
#include "udf/engine.h"
#include "udf/module_check.h"

namespace higgins::derived {

/// One uploaded version of a module, compiled and ready to run.
struct ModuleVersion {
  std::string name;
  uint64_t version = 0;  // 1 for the first upload of a name, then +1 per upload
  size_t bytes = 0;
  std::shared_ptr<const udf::CompiledModule> compiled;
  const udf::ModuleInfo& info() const { return compiled->info(); }
};

/// The uploaded UDF modules (docs/udf-abi.md): each name's current version, persisted under
/// <dir>/modules as `<name>@<version>.wasm` and compiled once by the engine.
///
/// Versions: uploading a name again stores version N+1 and makes it current once the upload is
/// durable; a derived-stream processor takes the current version at the start of each batch it
/// processes, so base records processed after the upload's reply use the new version, and
/// derived records already written keep the values of the version that made them
/// (docs/udf-abi.md, "Versions"). Older files are removed after the new one is durable.
///
/// Thread-safety: every method may be called from any thread.
class ModuleRegistry {
 public:
  /// Loads the newest version of every module in `dir` (created if absent) and compiles it.
  /// A stored module the engine no longer accepts is logged and skipped (streams using it
  /// record errors until it is uploaded again). Errors: IOError.
  static Result<std::unique_ptr<ModuleRegistry>> Open(std::string dir, udf::Engine* engine,
                                                      udf::ModuleLimits limits);

  /// Checks (udf::Engine::Inspect), stores durably and compiles a module, returning its
  /// version. Names are 1..kMaxModuleNameBytes of [A-Za-z0-9_.-]. Errors: InvalidArgument
  /// listing every problem of the module, one per line; ResourceExhausted over the size limit;
  /// IOError.
  Result<std::shared_ptr<const ModuleVersion>> Upload(std::string_view name,
                                                      std::string_view bytes);

  /// The current version, or null when no module of that name was uploaded.
  std::shared_ptr<const ModuleVersion> Find(std::string_view name) const;

  static constexpr size_t kMaxModuleNameBytes = 200;

 private:
  ModuleRegistry(std::string dir, udf::Engine* engine, udf::ModuleLimits limits)
      : dir_(std::move(dir)), engine_(engine), limits_(limits) {}
  std::string PathOf(std::string_view name, uint64_t version) const;

  const std::string dir_;
  udf::Engine* const engine_;
  const udf::ModuleLimits limits_;
  std::mutex upload_mu_;  // serialises uploads (held across their I/O)
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const ModuleVersion>, std::less<>> current_;
};

}  // namespace higgins::derived
