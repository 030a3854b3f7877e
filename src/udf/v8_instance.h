#pragma once

#include <v8-context.h>
#include <v8-function.h>
#include <v8-persistent-handle.h>
#include <v8-wasm.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "higgins/result.h"
#include "udf/engine.h"
#include "udf/v8_compiled_module.h"

namespace higgins::udf {

/// One instance of a compiled module in a sandbox's isolate, and the host half of the ABI with
/// it (docs/udf-abi.md): staging inputs through `_malloc`, calling `run`, reading the result and
/// the module's own error text, never trusting a pointer or length the module returns.
///
/// Every method must be called on the sandbox's thread with its isolate entered and a
/// HandleScope and the sandbox's context open. Errors carry the messages documented on
/// Sandbox::Call; the caller discards the instance after any of them.
class V8Instance {
 public:
  /// Instantiates `module` with no imports (`instance_ctor` is the context's
  /// WebAssembly.Instance) and looks up its exports. A start function runs here, under the
  /// call's deadline. Errors: InvalidArgument "the module could not be instantiated: ...",
  /// DeadlineExceeded "instantiating the module (its start function) took longer than N ms".
  static Result<std::unique_ptr<V8Instance>> Create(v8::Isolate* isolate,
                                                    v8::Local<v8::Context> context,
                                                    v8::Local<v8::Function> instance_ctor,
                                                    const V8CompiledModule& module,
                                                    const CallLimits& limits);

  /// The engine's caps on every call, in bytes (from its options).
  struct Caps {
    /// The module's linear memory at most (to tell a module that cannot grow from one whose
    /// `_malloc` is broken).
    size_t max_memory_bytes = 0;
    /// The result `run` may return at most: a longer one fails with ResourceExhausted.
    size_t max_result_bytes = 0;
  };

  /// `_reset` (if exported), then each input staged with `_malloc`, then `run`; returns the
  /// result's bytes.
  Result<std::string> Run(std::span<const std::string_view> inputs, const CallLimits& limits,
                          const Caps& caps);

  /// The text `get_errors` reports, sanitised and cut to kMaxGuestTextBytes; empty when the
  /// module does not export it or it returns 0. Errors (InvalidArgument, DeadlineExceeded) say
  /// why `get_errors` itself failed, e.g. "RuntimeError: unreachable", "it did not return
  /// within the call's deadline of 1000 ms" or "it returned a pointer outside memory...".
  Result<std::string> ReportedErrors(const CallLimits& limits);

  /// Current size of the instance's linear memory.
  size_t MemoryBytes();

 private:
  struct Memory {
    uint8_t* base;
    size_t size;
  };

  V8Instance(v8::Isolate* isolate, v8::Local<v8::Context> context)
      : isolate_(isolate), context_(isolate, context) {}

  /// Calls export `name` with i32 arguments; its i32 result, or 0 for a function without one.
  /// A trap is InvalidArgument `trap_prefix` + V8's text; a terminated call is DeadlineExceeded
  /// `timeout_message`.
  Result<int32_t> Invoke(const v8::Global<v8::Function>& fn, std::string_view name,
                         std::span<const int32_t> args, const std::string& trap_prefix,
                         const std::string& timeout_message);
  /// Copies one input into memory (length prefix and bytes); returns its pointer.
  Result<int32_t> Stage(std::string_view input, const CallLimits& limits, size_t max_memory_bytes);
  /// The result at `pointer` (from `run`).
  Result<std::string> ReadResult(int32_t pointer, const Caps& caps);
  /// The linear memory as it is now: re-fetched after every call into the module, because a
  /// memory.grow replaces the ArrayBuffer.
  Memory CurrentMemory();

  v8::Isolate* isolate_;
  v8::Global<v8::Context> context_;
  v8::Global<v8::WasmMemoryObject> memory_;
  v8::Global<v8::Function> malloc_;
  v8::Global<v8::Function> run_;
  v8::Global<v8::Function> reset_;       // empty unless exported
  v8::Global<v8::Function> get_errors_;  // empty unless exported
};

}  // namespace higgins::udf
