#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "higgins/status.h"

namespace higgins::udf {

/// The signature of a module's `run` export (docs/udf-abi.md), which decides the derived stream
/// types it can serve.
enum class RunKind {
  kMap,     // run(i32 in) -> i32 out
  kReduce,  // run(i32 prev, i32 cur) -> i32 out
};

/// "map" or "reduce".
std::string_view RunKindName(RunKind kind);

/// Inputs `run` takes: 1 for map, 2 for reduce.
size_t RunArity(RunKind kind);

/// What CheckModule learned about a valid module.
struct ModuleInfo {
  RunKind run_kind = RunKind::kMap;
  bool has_get_errors = false;  // exports get_errors() -> i32
  bool has_reset = false;       // exports _reset() -> (): called before each batch
  uint32_t initial_pages = 0;   // of its memory
  std::optional<uint32_t> max_pages;
};

/// OK when `inputs` is the number of inputs a module of `info`'s kind takes; otherwise
/// InvalidArgument "the module's 'run' is a map and takes 1 input(s); 2 given".
Status CheckInputCount(const ModuleInfo& info, size_t inputs);

}  // namespace higgins::udf
