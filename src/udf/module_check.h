#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "higgins/result.h"
#include "udf/module_info.h"

namespace higgins::udf {

/// Most elements a module's tables may hold: the total of their initial sizes at upload, and
/// each table's size at run time (V8's --wasm-max-table-size, set by InitializeV8: table.grow
/// past it returns -1). V8's own default, 10 million per table, let 20 tables fill the heap.
inline constexpr uint32_t kMaxTableElements = 100'000;
/// Most tables a module may define.
inline constexpr uint32_t kMaxTables = 16;

/// Limits of an upload (docs/udf-abi.md, "What an upload must satisfy").
struct ModuleLimits {
  size_t max_module_bytes = 32u << 20;
  /// A memory whose *initial* size is over this many 64 KiB pages is refused (its maximum, if
  /// declared, may be larger: growth past the engine's cap fails inside the module).
  uint32_t max_memory_pages = 1024;
  /// Most tables, and most elements in all of them at the start (initial sizes).
  uint32_t max_tables = kMaxTables;
  uint64_t max_table_elements = kMaxTableElements;
};

/// Decodes and validates a WebAssembly binary with libwabt (the MVP plus the post-MVP features
/// of docs/udf-abi.md: bulk memory, multi-value, reference types, sign extension, non-trapping
/// float-to-int, mutable globals; SIMD is accepted too) and checks the ABI of docs/udf-abi.md:
///   - no imports of any kind;
///   - exports `memory` (a memory), `_malloc` (func (i32) -> i32), `run` (func (i32) -> i32 for
///     map or (i32, i32) -> i32 for reduce);
///   - optional exports `get_errors` (func () -> i32) and `_reset` (func () -> ()), with exactly
///     those signatures when present;
///   - size, initial memory, table count and the tables' total initial size within `limits`.
/// Pure; thread-safe.
///
/// Errors: InvalidArgument whose message lists every problem found, one per line (for example
/// "the module imports 'env.abort' (a function): UDF modules must import nothing" and
/// "the module does not export 'run'"); a binary that does not decode gives libwabt's message
/// with its byte offset (never an exception from libwabt: a binary it cannot handle is refused
/// the same way, and a data count larger than the module is refused before libwabt sees it).
/// ResourceExhausted when the size is over the limit.
Result<ModuleInfo> CheckModule(std::string_view bytes, const ModuleLimits& limits);

}  // namespace higgins::udf
