#include "udf/module_check.h"

#include <string>
#include <vector>

#include "udf/framing.h"
#include "udf/wasm_decoder.h"

namespace higgins::udf {
namespace {

using Kind = WasmModule::Kind;

std::string_view KindName(Kind kind) {
  switch (kind) {
    case Kind::kFunction: return "function";
    case Kind::kTable: return "table";
    case Kind::kMemory: return "memory";
    case Kind::kGlobal: return "global";
    case Kind::kTag: return "tag";
  }
  return "unknown";
}

std::string TypeList(const std::vector<std::string>& types) {
  std::string out = "(";
  for (size_t i = 0; i < types.size(); ++i) {
    if (i > 0) out += ", ";
    out += types[i];
  }
  return out + ")";
}

// "(i32, i32) -> i32", "() -> ()".
std::string Signature(const WasmModule::FunctionType& type) {
  if (type.results.size() == 1) return TypeList(type.params) + " -> " + type.results[0];
  return TypeList(type.params) + " -> " + TypeList(type.results);
}

bool IsI32Signature(const WasmModule::FunctionType& type, size_t params, size_t results) {
  if (type.params.size() != params || type.results.size() != results) return false;
  for (const std::string& t : type.params) {
    if (t != "i32") return false;
  }
  for (const std::string& t : type.results) {
    if (t != "i32") return false;
  }
  return true;
}

const WasmModule::Export* FindExport(const WasmModule& module, std::string_view name) {
  for (const WasmModule::Export& e : module.exports) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

// Defined and imported.
size_t MemoryCount(const WasmModule& module) {
  size_t memories = module.memories.size();
  for (const WasmModule::Import& import : module.imports) {
    if (import.kind == Kind::kMemory) ++memories;
  }
  return memories;
}

// The type of the function exported as `name`; nullptr after adding a problem when it is not a
// function (or, if `required`, when it is missing).
const WasmModule::FunctionType* ExportedFunction(const WasmModule& module, std::string_view name,
                                                 bool required,
                                                 std::vector<std::string>& problems) {
  const WasmModule::Export* e = FindExport(module, name);
  if (e == nullptr) {
    if (required) problems.push_back("the module does not export '" + std::string(name) + "'");
    return nullptr;
  }
  if (e->kind != Kind::kFunction) {
    problems.push_back("the module exports '" + std::string(name) + "' as a " +
                       std::string(KindName(e->kind)) + "; it must be a function");
    return nullptr;
  }
  return &e->function;
}

void CheckImports(const WasmModule& module, std::vector<std::string>& problems) {
  for (const WasmModule::Import& import : module.imports) {
    problems.push_back("the module imports '" + import.module + "." + import.name + "' (a " +
                       std::string(KindName(import.kind)) + "): UDF modules must import nothing");
  }
}

void CheckMemory(const WasmModule& module, const ModuleLimits& limits, ModuleInfo& info,
                 std::vector<std::string>& problems) {
  const size_t memories = MemoryCount(module);
  if (memories == 0) {
    problems.push_back("the module has no memory; it must define one and export it as 'memory'");
    return;
  }
  if (memories > 1) {
    problems.push_back("the module has " + std::to_string(memories) +
                       " memories; exactly one is allowed");
  }
  for (const WasmModule::Memory& memory : module.memories) {
    if (memory.initial_pages > limits.max_memory_pages) {
      problems.push_back(
          "the module's memory starts at " + std::to_string(memory.initial_pages) +
          " pages of 64 KiB, more than the limit of " + std::to_string(limits.max_memory_pages) +
          " pages (" + std::to_string((limits.max_memory_pages * kWasmPageBytes) >> 20) + " MiB)");
    }
  }
  if (!module.memories.empty()) {
    // Within uint32_t: wabt refuses more than 65536 pages for a 32-bit memory.
    const WasmModule::Memory& memory = module.memories.front();
    info.initial_pages = static_cast<uint32_t>(memory.initial_pages);
    if (memory.max_pages) info.max_pages = static_cast<uint32_t>(*memory.max_pages);
  }
  const WasmModule::Export* e = FindExport(module, "memory");
  if (e == nullptr) {
    problems.push_back("the module does not export 'memory'");
  } else if (e->kind != Kind::kMemory) {
    problems.push_back("the module exports 'memory' as a " + std::string(KindName(e->kind)) +
                       "; it must be a memory");
  }
}

// Tables live on V8's heap, outside the memory cap: their number and total size are capped.
void CheckTables(const WasmModule& module, const ModuleLimits& limits,
                 std::vector<std::string>& problems) {
  if (module.tables.size() > limits.max_tables) {
    problems.push_back("the module defines " + std::to_string(module.tables.size()) +
                       " tables, more than the limit of " + std::to_string(limits.max_tables));
  }
  uint64_t elements = 0;
  for (const WasmModule::Table& table : module.tables) elements += table.initial_elements;
  if (elements > limits.max_table_elements) {
    problems.push_back("the module's tables start with " + std::to_string(elements) +
                       " elements in all, more than the limit of " +
                       std::to_string(limits.max_table_elements));
  }
}

void CheckFunctions(const WasmModule& module, ModuleInfo& info,
                    std::vector<std::string>& problems) {
  if (const auto* f = ExportedFunction(module, "_malloc", true, problems);
      f != nullptr && !IsI32Signature(*f, 1, 1)) {
    problems.push_back("the module's '_malloc' has type " + Signature(*f) +
                       "; it must be (i32) -> i32");
  }
  if (const auto* f = ExportedFunction(module, "run", true, problems); f != nullptr) {
    if (IsI32Signature(*f, 1, 1)) {
      info.run_kind = RunKind::kMap;
    } else if (IsI32Signature(*f, 2, 1)) {
      info.run_kind = RunKind::kReduce;
    } else {
      problems.push_back("the module's 'run' has type " + Signature(*f) +
                         "; it must be (i32) -> i32 (map) or (i32, i32) -> i32 (reduce)");
    }
  }
  if (const auto* f = ExportedFunction(module, "get_errors", false, problems); f != nullptr) {
    info.has_get_errors = IsI32Signature(*f, 0, 1);
    if (!info.has_get_errors) {
      problems.push_back("the module's 'get_errors' has type " + Signature(*f) +
                         "; it must be () -> i32");
    }
  }
  if (const auto* f = ExportedFunction(module, "_reset", false, problems); f != nullptr) {
    info.has_reset = IsI32Signature(*f, 0, 0);
    if (!info.has_reset) {
      problems.push_back("the module's '_reset' has type " + Signature(*f) +
                         "; it must be () -> ()");
    }
  }
}

}  // namespace

Result<ModuleInfo> CheckModule(std::string_view bytes, const ModuleLimits& limits) {
  if (bytes.size() > limits.max_module_bytes) {
    return Status::ResourceExhausted("the module has " + std::to_string(bytes.size()) +
                                     " bytes, more than the limit of " +
                                     std::to_string(limits.max_module_bytes));
  }
  WasmModule module;
  std::string error;
  if (!DecodeWasm(bytes, /*multi_memory=*/false, module, error)) {
    // libwabt stops at a second memory ("memory count must be 0 or 1"). Decoding again with
    // multi-memory tells whether that is the module's only trouble with the format; if so its
    // problems are listed like any other module's, the memory count among them.
    std::string ignored;
    if (!DecodeWasm(bytes, /*multi_memory=*/true, module, ignored) || MemoryCount(module) <= 1) {
      return Status::InvalidArgument("the module is not valid WebAssembly: " + error);
    }
  }
  ModuleInfo info;
  std::vector<std::string> problems;
  CheckImports(module, problems);
  CheckMemory(module, limits, info, problems);
  CheckTables(module, limits, problems);
  CheckFunctions(module, info, problems);
  if (!problems.empty()) {
    std::string message;
    for (const std::string& problem : problems) {
      if (!message.empty()) message += '\n';
      message += problem;
    }
    return Status::InvalidArgument(std::move(message));
  }
  return info;
}

}  // namespace higgins::udf
