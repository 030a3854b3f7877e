#pragma once

#include <v8-wasm.h>

#include <memory>

#include "udf/engine.h"

namespace higgins::udf {

/// A module compiled by the V8 engine: V8's native module (machine code shared by every isolate
/// of the process, through WasmModuleObject::FromCompiledModule) and what CheckModule learned.
/// Immutable. Always owned by a shared_ptr (V8Engine::Compile), so that sandboxes can notice,
/// through weak_from_this(), that a module they cached an instance for is gone.
class V8CompiledModule final : public CompiledModule,
                               public std::enable_shared_from_this<V8CompiledModule> {
 public:
  V8CompiledModule(ModuleInfo info, v8::CompiledWasmModule compiled)
      : CompiledModule(info), compiled_(std::move(compiled)) {}

  const v8::CompiledWasmModule& compiled() const { return compiled_; }

 private:
  v8::CompiledWasmModule compiled_;
};

}  // namespace higgins::udf
