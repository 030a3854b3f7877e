#pragma once

#include <v8-array-buffer.h>
#include <v8-context.h>
#include <v8-function.h>
#include <v8-persistent-handle.h>

#include <memory>
#include <unordered_map>

#include "udf/engine.h"
#include "udf/v8_instance.h"
#include "udf/watchdog.h"

namespace v8 {
class Platform;
}

namespace higgins::udf {

/// A V8 sandbox: one Isolate and Context owned by the thread that created it, the context's
/// WebAssembly.Instance constructor (fetched once: the only JS object the host ever touches),
/// and one cached instance per module run on it.
///
/// Instances are keyed by the CompiledModule's address and remember the module through a
/// weak_ptr: an instance whose module was destroyed is dropped on the next call (so a new module
/// at the same address never meets a stale instance). An instance is discarded after any error,
/// when its memory has grown past CallLimits::recycle_memory_bytes, and after every call of a
/// module that does not export `_reset` (it may keep state that only grows: each of its calls
/// runs on a fresh instance). V8's GC reclaims the
/// memory of discarded instances on its own (it counts wasm memories as external memory): a
/// module leaking 1 MiB per call for 2000 calls, recycled at 8 MiB, grew the process by 35 MiB.
///
/// The isolate's heap is capped at EngineOptions::max_heap_bytes: near it, V8 calls
/// NearHeapLimit, which terminates the call (ResourceExhausted) and gives V8 some headroom; the
/// instance is discarded, a full GC follows and the limit is put back.
///
/// Every call is watched by the engine's Watchdog from before the instance is created to after
/// `get_errors`. Thread-safety: none (see Sandbox).
class V8Sandbox final : public Sandbox {
 public:
  /// Creates the isolate and context on the calling thread. Errors: Internal.
  static Result<std::unique_ptr<V8Sandbox>> Create(const EngineOptions& options,
                                                   std::shared_ptr<Watchdog> watchdog);
  ~V8Sandbox() override;

  Result<std::string> Call(const CompiledModule& module, std::span<const std::string_view> inputs,
                           const CallLimits& limits) override;

 private:
  struct Slot {
    std::weak_ptr<const V8CompiledModule> module;
    std::unique_ptr<V8Instance> instance;  // null until the next call instantiates it
  };

  V8Sandbox(const EngineOptions& options, std::shared_ptr<Watchdog> watchdog);
  Status Init();
  /// The cache slot of `module`, after dropping the slots of destroyed modules.
  Slot& SlotFor(const V8CompiledModule& module);
  Result<std::string> CallArmed(Slot& slot, const V8CompiledModule& module,
                                std::span<const std::string_view> inputs, const CallLimits& limits);
  /// V8's near-heap-limit callback: terminates the running call and raises the limit a little,
  /// so that V8 does not abort the process.
  static size_t NearHeapLimit(void* data, size_t current_heap_limit, size_t initial_heap_limit);
  /// Runs the isolate's due platform tasks (GC steps and the like), which nothing else would.
  void RunPendingTasks();

  const EngineOptions options_;
  const std::shared_ptr<Watchdog> watchdog_;
  v8::Platform* const platform_;
  std::unique_ptr<v8::ArrayBuffer::Allocator> allocator_;
  v8::Isolate* isolate_ = nullptr;
  v8::Global<v8::Context> context_;
  v8::Global<v8::Function> instance_ctor_;
  std::unordered_map<const CompiledModule*, Slot> slots_;
  /// Set by NearHeapLimit during a call (on this thread: V8 calls it from the allocation).
  bool heap_limit_hit_ = false;
};

}  // namespace higgins::udf
