#include "derived/module_registry.h"

#include <spdlog/spdlog.h>

#include <charconv>
#include <filesystem>

#include "common/file_util.h"

namespace higgins::derived {
namespace {

namespace fs = std::filesystem;

bool ValidModuleName(std::string_view name) {
  if (name.empty() || name.size() > ModuleRegistry::kMaxModuleNameBytes || name == "." ||
      name == "..") {
    return false;
  }
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

/// Splits "<name>@<version>.wasm"; false for any other file name.
bool ParseFileName(std::string_view file, std::string* name, uint64_t* version) {
  constexpr std::string_view kSuffix = ".wasm";
  if (file.size() <= kSuffix.size() || !file.ends_with(kSuffix)) return false;
  file.remove_suffix(kSuffix.size());
  const size_t at = file.rfind('@');
  if (at == std::string_view::npos) return false;
  const std::string_view digits = file.substr(at + 1);
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), *version);
  if (ec != std::errc() || end != digits.data() + digits.size() || *version == 0) return false;
  *name = std::string(file.substr(0, at));
  return ValidModuleName(*name);
}

}  // namespace

std::string ModuleRegistry::PathOf(std::string_view name, uint64_t version) const {
  return dir_ + "/" + std::string(name) + "@" + std::to_string(version) + ".wasm";
}

Result<std::unique_ptr<ModuleRegistry>> ModuleRegistry::Open(std::string dir, udf::Engine* engine,
                                                             udf::ModuleLimits limits) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::IOError("create " + dir + ": " + ec.message());
  std::unique_ptr<ModuleRegistry> registry(new ModuleRegistry(dir, engine, limits));
  std::map<std::string, uint64_t> newest;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name;
    uint64_t version = 0;
    if (!entry.is_regular_file() ||
        !ParseFileName(entry.path().filename().string(), &name, &version)) {
      continue;
    }
    uint64_t& v = newest[name];
    v = std::max(v, version);
  }
  if (ec) return Status::IOError("list " + dir + ": " + ec.message());
  for (const auto& [name, version] : newest) {
    const std::string path = registry->PathOf(name, version);
    auto bytes = ReadFileToString(path, limits.max_module_bytes + 1);
    if (!bytes.ok()) return bytes.status();
    auto info = engine->Inspect(*bytes);
    auto compiled = info.ok() ? engine->Compile(*bytes)
                              : Result<std::shared_ptr<const udf::CompiledModule>>(info.status());
    if (!compiled.ok()) {
      spdlog::error("module '{}' version {} ({}) cannot be loaded: {}", name, version, path,
                    compiled.status().ToString());
      continue;
    }
    auto module = std::make_shared<ModuleVersion>();
    module->name = name;
    module->version = version;
    module->bytes = bytes->size();
    module->compiled = *std::move(compiled);
    registry->current_.emplace(name, std::move(module));
  }
  if (!registry->current_.empty()) {
    spdlog::info("loaded {} UDF modules from {}", registry->current_.size(), dir);
  }
  return registry;
}

Result<std::shared_ptr<const ModuleVersion>> ModuleRegistry::Upload(std::string_view name,
                                                                    std::string_view bytes) {
  if (!ValidModuleName(name)) {
    std::string shown(name.substr(0, 300));
    for (char& c : shown) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';  // one line per problem
    }
    return Status::InvalidArgument("module name '" + shown + "' is not 1 to " +
                                   std::to_string(kMaxModuleNameBytes) +
                                   " characters of A-Z a-z 0-9 _ . -");
  }
  const std::string quoted = "module '" + std::string(name) + "'";
  if (bytes.empty()) return Status::InvalidArgument(quoted + " is empty");
  if (bytes.size() > limits_.max_module_bytes) {
    return Status::ResourceExhausted(quoted + " has " + std::to_string(bytes.size()) +
                                     " bytes, more than the limit of " +
                                     std::to_string(limits_.max_module_bytes));
  }
  auto info = engine_->Inspect(bytes);
  if (!info.ok()) return info.status().WithContext(quoted + " is not a valid UDF");
  HIGGINS_ASSIGN_OR_RETURN(auto compiled, engine_->Compile(bytes));

  std::lock_guard upload_lock(upload_mu_);
  const auto previous = Find(name);
  auto module = std::make_shared<ModuleVersion>();
  module->name = std::string(name);
  module->version = previous ? previous->version + 1 : 1;
  module->bytes = bytes.size();
  module->compiled = std::move(compiled);
  HIGGINS_RETURN_IF_ERROR(WriteFileAtomically(PathOf(name, module->version), bytes));
  {
    std::lock_guard lock(mu_);
    current_[std::string(name)] = module;
  }
  if (previous) {
    std::error_code ec;
    fs::remove(PathOf(name, previous->version), ec);
    if (ec) spdlog::warn("removing {}: {}", PathOf(name, previous->version), ec.message());
  }
  spdlog::info("module '{}' version {} stored ({} bytes, {})", name, module->version, bytes.size(),
               udf::RunKindName(module->info().run_kind));
  return std::shared_ptr<const ModuleVersion>(std::move(module));
}

std::shared_ptr<const ModuleVersion> ModuleRegistry::Find(std::string_view name) const {
  std::lock_guard lock(mu_);
  auto it = current_.find(name);
  return it == current_.end() ? nullptr : it->second;
}

}  // namespace higgins::derived
