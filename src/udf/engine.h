#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "higgins/result.h"
#include "udf/module_info.h"

namespace higgins::udf {

/// A module compiled by an Engine: immutable, shared by every Sandbox of that engine (any
/// thread). Only the Engine that compiled it may run it.
class CompiledModule {
 public:
  virtual ~CompiledModule() = default;
  const ModuleInfo& info() const { return info_; }

 protected:
  explicit CompiledModule(ModuleInfo info) : info_(info) {}

 private:
  ModuleInfo info_;
};

/// Limits of every call (docs/udf-abi.md, "Limits").
struct CallLimits {
  /// Wall time of one Call: instantiation when the sandbox has no instance of the module kept
  /// (always for a module without `_reset`; a start function runs then), `_reset`, `_malloc`,
  /// `run` and `get_errors`. Past it the module is stopped and the call fails with
  /// DeadlineExceeded.
  std::chrono::milliseconds deadline{1000};
  /// An instance whose linear memory is larger than this after a call is discarded and a fresh
  /// one is instantiated for the next call (modules that never free do not grow without bound).
  size_t recycle_memory_bytes = 32u << 20;
};

/// One worker thread's place to run modules: it owns the engine state that must stay on one
/// thread (for V8, an Isolate and a Context) and an instance per module it has run. An instance
/// serves the next call only if the module exports `_reset` and the call succeeded within
/// CallLimits::recycle_memory_bytes; a module without `_reset` gets a fresh instance per call.
///
/// Thread-safety: none; create, use and destroy a Sandbox on one thread.
class Sandbox {
 public:
  virtual ~Sandbox() = default;

  /// Calls the module's `run` with `inputs` (one for map, two for reduce: prev, cur), each the
  /// bytes of an Arrow IPC stream, passed with the framing of docs/udf-abi.md: for each input the
  /// host calls `_malloc(8 + n)` and writes an 8-byte big-endian length n then the n bytes.
  /// Returns the n bytes after the 8-byte big-endian length at the pointer `run` returns (the
  /// caller decodes them: udf/abi.h). Every pointer and length the module returns is checked
  /// against its memory before it is read.
  ///
  /// Errors (the instance is discarded after any of them, so a module's bad state does not
  /// leak into the next call):
  ///   - DeadlineExceeded "the call of 'run' took longer than 1000 ms" when limits.deadline passed.
  ///   - InvalidArgument "the module trapped in 'run': <engine message>" (or in '_malloc',
  ///     '_reset') for a trap (out-of-bounds access, unreachable, stack overflow, division by
  ///     zero, ...), "the module could not be instantiated: ...", "'_malloc' returned 0",
  ///     "'run' returned 0", "'run' returned a result outside memory: ..." and so on; when the
  ///     module exports `get_errors` and it returns text, the message ends with
  ///     "; the module reported: <text>" (its first 1 KiB, as valid UTF-8 on one line).
  ///   - ResourceExhausted when the module's memory cannot grow for the input, or a result is
  ///     over `max_result_bytes`.
  ///   - InvalidArgument if inputs.size() does not match the module's RunKind, or the module
  ///     comes from another engine.
  ///   - Internal when the calling thread has too little stack left (udf/stack_limit.h).
  virtual Result<std::string> Call(const CompiledModule& module,
                                   std::span<const std::string_view> inputs,
                                   const CallLimits& limits) = 0;
};

/// Process-wide engine settings (docs/operations.md, "Flags").
struct EngineOptions {
  /// Most 64 KiB pages one instance's memory may have; modules declaring more initial pages
  /// are refused by CheckModule, and memory.grow past it fails in the module.
  uint32_t max_memory_pages = 1024;  // 64 MiB
  /// Largest result a call may return, in bytes.
  size_t max_result_bytes = 64u << 20;
  /// Most bytes of V8 heap one sandbox (isolate) may use: tables, instances and V8's own
  /// objects, not linear memories (max_memory_pages caps those). A call that passes it fails
  /// with ResourceExhausted "the module used more than N MiB of engine heap" (not a crash), and
  /// the instance is discarded.
  size_t max_heap_bytes = 256u << 20;
};

/// A WebAssembly engine behind the narrowest interface the derived-stream processors need.
///
/// Thread-safety: Inspect and Compile may be called from any thread; NewSandbox returns a
/// Sandbox bound to the calling thread.
class Engine {
 public:
  virtual ~Engine() = default;

  /// Checks an upload (udf/module_check.h for the rules). Errors: InvalidArgument listing every
  /// problem, one per line.
  virtual Result<ModuleInfo> Inspect(std::string_view bytes) const = 0;

  /// Compiles a module that passed Inspect, once, for every sandbox. Errors: InvalidArgument
  /// with the engine's message.
  virtual Result<std::shared_ptr<const CompiledModule>> Compile(std::string_view bytes) = 0;

  /// A sandbox for the calling thread. Errors: Internal when the engine cannot start.
  virtual Result<std::unique_ptr<Sandbox>> NewSandbox() = 0;
};

/// V8 (Debian's libnode, V8 10.2) with libwabt checks (src/udf/README.md). V8's process-wide
/// flags are set by the first call; later calls must pass the same max_memory_pages (Internal
/// otherwise; max_result_bytes may differ per engine). InvalidArgument when max_memory_pages is
/// not in 1..65536.
///
/// Under AddressSanitizer V8's trap handler takes over SIGSEGV and hands faults outside wasm code
/// back to ASan's handler, so both keep working (no ASAN_OPTIONS needed). The library also
/// suppresses LeakSanitizer reports of V8's own allocations (v8_platform.cc).
Result<std::unique_ptr<Engine>> MakeV8Engine(const EngineOptions& options);

}  // namespace higgins::udf
