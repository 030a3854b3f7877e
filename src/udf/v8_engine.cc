#include <libplatform/libplatform.h>
#include <v8-context.h>
#include <v8-exception.h>
#include <v8-isolate.h>
#include <v8-locker.h>
#include <v8-wasm.h>

#include <memory>
#include <mutex>
#include <string>

#include "udf/engine.h"
#include "udf/guest_text.h"
#include "udf/module_check.h"
#include "udf/stack_limit.h"
#include "udf/v8_compiled_module.h"
#include "udf/v8_platform.h"
#include "udf/v8_sandbox.h"
#include "udf/watchdog.h"

namespace higgins::udf {
namespace {

/// The isolate Compile uses, from whichever thread calls it: every use holds mu_ and a
/// v8::Locker (an isolate used from several threads needs one), and sets the stack limit for the
/// calling thread. Compiled code does not belong to it: CompiledWasmModule is shared by all.
class CompileIsolate {
 public:
  ~CompileIsolate() {
    if (isolate_ == nullptr) return;
    {
      v8::Locker locker(isolate_);
      context_.Reset();
    }
    v8::platform::NotifyIsolateShutdown(V8Platform(), isolate_);
    isolate_->Dispose();
  }

  Result<v8::CompiledWasmModule> Compile(std::string_view bytes) {
    std::lock_guard lock(mu_);
    HIGGINS_ASSIGN_OR_RETURN(const uintptr_t stack_limit, StackLimitForThisThread());
    if (isolate_ == nullptr) {
      allocator_.reset(v8::ArrayBuffer::Allocator::NewDefaultAllocator());
      v8::Isolate::CreateParams params;
      params.array_buffer_allocator = allocator_.get();
      isolate_ = v8::Isolate::New(params);
      if (isolate_ == nullptr) return Status::Internal("V8 could not create an isolate");
    }
    v8::Locker locker(isolate_);
    v8::Isolate::Scope isolate_scope(isolate_);
    isolate_->SetStackLimit(stack_limit);
    v8::HandleScope handles(isolate_);
    if (context_.IsEmpty()) {
      const v8::Local<v8::Context> context = v8::Context::New(isolate_);
      if (context.IsEmpty()) return Status::Internal("V8 could not create a context");
      context_.Reset(isolate_, context);
    }
    // WasmModuleObject::Compile checks the current context's code-generation policy.
    v8::Context::Scope context_scope(context_.Get(isolate_));
    Result<v8::CompiledWasmModule> result = CompileLocked(bytes);
    while (v8::platform::PumpMessageLoop(V8Platform(), isolate_)) {
    }
    return result;
  }

 private:
  Result<v8::CompiledWasmModule> CompileLocked(std::string_view bytes) {
    v8::TryCatch try_catch(isolate_);
    v8::Local<v8::WasmModuleObject> module;
    const v8::MemorySpan<const uint8_t> wire(reinterpret_cast<const uint8_t*>(bytes.data()),
                                             bytes.size());
    if (!v8::WasmModuleObject::Compile(isolate_, wire).ToLocal(&module)) {
      std::string text = "unknown error";
      v8::Local<v8::String> message;
      if (try_catch.HasCaught() &&
          try_catch.Exception()->ToString(isolate_->GetCurrentContext()).ToLocal(&message)) {
        v8::String::Utf8Value utf8(isolate_, message);
        if (*utf8 != nullptr) {
          text =
              SanitizeGuestText(std::string_view(*utf8, static_cast<size_t>(utf8.length())), false);
        }
      }
      return Status::InvalidArgument("V8 could not compile the module: " + text);
    }
    return module->GetCompiledModule();
  }

  std::mutex mu_;
  std::unique_ptr<v8::ArrayBuffer::Allocator> allocator_;  // guarded by mu_
  v8::Isolate* isolate_ = nullptr;                         // guarded by mu_
  v8::Global<v8::Context> context_;                        // guarded by mu_
};

class V8Engine final : public Engine {
 public:
  explicit V8Engine(const EngineOptions& options)
      : options_(options), watchdog_(std::make_shared<Watchdog>()) {}

  Result<ModuleInfo> Inspect(std::string_view bytes) const override {
    return CheckModule(bytes, Limits());
  }

  Result<std::shared_ptr<const CompiledModule>> Compile(std::string_view bytes) override {
    HIGGINS_ASSIGN_OR_RETURN(ModuleInfo info, CheckModule(bytes, Limits()));
    HIGGINS_ASSIGN_OR_RETURN(v8::CompiledWasmModule compiled, compile_isolate_.Compile(bytes));
    return std::shared_ptr<const CompiledModule>(
        std::make_shared<V8CompiledModule>(info, std::move(compiled)));
  }

  Result<std::unique_ptr<Sandbox>> NewSandbox() override {
    HIGGINS_ASSIGN_OR_RETURN(std::unique_ptr<V8Sandbox> sandbox,
                             V8Sandbox::Create(options_, watchdog_));
    return std::unique_ptr<Sandbox>(std::move(sandbox));
  }

 private:
  ModuleLimits Limits() const {
    ModuleLimits limits;
    limits.max_memory_pages = options_.max_memory_pages;
    return limits;
  }

  const EngineOptions options_;
  /// Shared with the sandboxes, which may outlive the engine.
  const std::shared_ptr<Watchdog> watchdog_;
  CompileIsolate compile_isolate_;
};

}  // namespace

Result<std::unique_ptr<Engine>> MakeV8Engine(const EngineOptions& options) {
  if (options.max_memory_pages == 0 || options.max_memory_pages > 65536) {
    return Status::InvalidArgument("max_memory_pages must be 1 to 65536 (64 KiB to 4 GiB), not " +
                                   std::to_string(options.max_memory_pages));
  }
  HIGGINS_RETURN_IF_ERROR(InitializeV8(options.max_memory_pages));
  return std::unique_ptr<Engine>(std::make_unique<V8Engine>(options));
}

}  // namespace higgins::udf
