#include "udf/v8_sandbox.h"

#include <libplatform/libplatform.h>
#include <v8-isolate.h>
#include <v8-local-handle.h>
#include <v8-primitive.h>

#include <string>
#include <utility>

#include "udf/framing.h"
#include "udf/stack_limit.h"
#include "udf/v8_platform.h"

namespace higgins::udf {
namespace {

Result<v8::Local<v8::Object>> GetObject(v8::Isolate* isolate, v8::Local<v8::Context> context,
                                        v8::Local<v8::Object> from, const char* name) {
  v8::Local<v8::Value> value;
  if (!from->Get(context, v8::String::NewFromUtf8(isolate, name).ToLocalChecked())
           .ToLocal(&value) ||
      !value->IsObject()) {
    return Status::Internal(std::string("the V8 context has no ") + name + " object");
  }
  return value.As<v8::Object>();
}

// Headroom NearHeapLimit gives V8 to finish the allocation at hand and unwind the terminated
// call (V8 aborts the process if the callback does not raise the limit).
constexpr size_t kHeapHeadroomBytes = 64u << 20;

// Whether `instance` may serve the next call of `module`. Only a module that exports `_reset`
// is told where a batch starts; one without it may keep state in its memory and globals that
// only grows (a log index, a "logger set" flag, an allocator that never rewinds), as modules
// built for hosts that instantiate them for every call do, so each of its calls gets a fresh
// instance. A failed call may have left any state; a large memory is not kept.
bool KeepInstance(const V8CompiledModule& module, bool call_succeeded, V8Instance& instance,
                  const CallLimits& limits) {
  return call_succeeded && module.info().has_reset &&
         instance.MemoryBytes() <= limits.recycle_memory_bytes;
}

}  // namespace

Result<std::unique_ptr<V8Sandbox>> V8Sandbox::Create(const EngineOptions& options,
                                                     std::shared_ptr<Watchdog> watchdog) {
  std::unique_ptr<V8Sandbox> sandbox(new V8Sandbox(options, std::move(watchdog)));
  HIGGINS_RETURN_IF_ERROR(sandbox->Init());
  return sandbox;
}

V8Sandbox::V8Sandbox(const EngineOptions& options, std::shared_ptr<Watchdog> watchdog)
    : options_(options), watchdog_(std::move(watchdog)), platform_(V8Platform()) {}

Status V8Sandbox::Init() {
  if (platform_ == nullptr) return Status::Internal("V8 is not initialised");
  HIGGINS_ASSIGN_OR_RETURN(const uintptr_t stack_limit, StackLimitForThisThread());
  allocator_.reset(v8::ArrayBuffer::Allocator::NewDefaultAllocator());
  v8::Isolate::CreateParams params;
  params.array_buffer_allocator = allocator_.get();
  params.constraints.set_max_old_generation_size_in_bytes(options_.max_heap_bytes);
  isolate_ = v8::Isolate::New(params);
  if (isolate_ == nullptr) return Status::Internal("V8 could not create an isolate");
  isolate_->AddNearHeapLimitCallback(&V8Sandbox::NearHeapLimit, this);
  isolate_->SetStackLimit(stack_limit);
  v8::Isolate::Scope isolate_scope(isolate_);
  v8::HandleScope handles(isolate_);
  const v8::Local<v8::Context> context = v8::Context::New(isolate_);
  if (context.IsEmpty()) return Status::Internal("V8 could not create a context");
  v8::Context::Scope context_scope(context);
  HIGGINS_ASSIGN_OR_RETURN(auto wasm,
                           GetObject(isolate_, context, context->Global(), "WebAssembly"));
  HIGGINS_ASSIGN_OR_RETURN(auto ctor, GetObject(isolate_, context, wasm, "Instance"));
  if (!ctor->IsFunction()) return Status::Internal("WebAssembly.Instance is not a function");
  context_.Reset(isolate_, context);
  instance_ctor_.Reset(isolate_, ctor.As<v8::Function>());
  return Status::OK();
}

V8Sandbox::~V8Sandbox() {
  if (isolate_ == nullptr) return;
  {
    v8::Isolate::Scope isolate_scope(isolate_);
    slots_.clear();
    instance_ctor_.Reset();
    context_.Reset();
  }
  v8::platform::NotifyIsolateShutdown(platform_, isolate_);
  isolate_->Dispose();
}

Result<std::string> V8Sandbox::Call(const CompiledModule& module,
                                    std::span<const std::string_view> inputs,
                                    const CallLimits& limits) {
  const auto* compiled = dynamic_cast<const V8CompiledModule*>(&module);
  if (compiled == nullptr) {
    return Status::InvalidArgument("the module was not compiled by the V8 engine");
  }
  HIGGINS_RETURN_IF_ERROR(CheckInputCount(module.info(), inputs.size()));
  HIGGINS_ASSIGN_OR_RETURN(const uintptr_t stack_limit, StackLimitForThisThread());
  v8::Isolate::Scope isolate_scope(isolate_);
  if (heap_limit_hit_) {
    // V8 reached the limit outside a call (a GC step between calls): its termination is not for
    // this call.
    isolate_->CancelTerminateExecution();
    heap_limit_hit_ = false;
  }
  Result<std::string> result = Status::Internal("the call did not run");
  {
    // Closed before the heap clean-up below: its handles would keep the instance alive.
    v8::HandleScope handles(isolate_);
    const v8::Local<v8::Context> context = context_.Get(isolate_);
    v8::Context::Scope context_scope(context);
    // Per call: the budget is counted from where this call enters V8, whatever the caller's
    // depth.
    isolate_->SetStackLimit(stack_limit);
    Slot& slot = SlotFor(*compiled);

    watchdog_->Arm(isolate_, Watchdog::Clock::now() + limits.deadline);
    result = CallArmed(slot, *compiled, inputs, limits);
    const bool deadline_hit = watchdog_->Disarm(isolate_);
    if (deadline_hit || heap_limit_hit_) isolate_->CancelTerminateExecution();
    if (heap_limit_hit_) {
      result = Status::ResourceExhausted("the module used more than " +
                                         std::to_string(options_.max_heap_bytes >> 20) +
                                         " MiB of engine heap");
    }
    if (slot.instance != nullptr && !KeepInstance(*compiled, result.ok(), *slot.instance, limits)) {
      slot.instance.reset();
    }
  }
  if (heap_limit_hit_) {
    // Frees the discarded instance now, then puts back the limit NearHeapLimit raised (V8 keeps
    // it above the live objects' size) by removing the callback and adding it again.
    isolate_->LowMemoryNotification();
    isolate_->RemoveNearHeapLimitCallback(&V8Sandbox::NearHeapLimit, options_.max_heap_bytes);
    isolate_->AddNearHeapLimitCallback(&V8Sandbox::NearHeapLimit, this);
    heap_limit_hit_ = false;
  }
  RunPendingTasks();
  return result;
}

size_t V8Sandbox::NearHeapLimit(void* data, size_t current_heap_limit,
                                size_t /*initial_heap_limit*/) {
  auto* sandbox = static_cast<V8Sandbox*>(data);
  sandbox->heap_limit_hit_ = true;
  sandbox->isolate_->TerminateExecution();
  return current_heap_limit + kHeapHeadroomBytes;
}

Result<std::string> V8Sandbox::CallArmed(Slot& slot, const V8CompiledModule& module,
                                         std::span<const std::string_view> inputs,
                                         const CallLimits& limits) {
  if (slot.instance == nullptr) {
    HIGGINS_ASSIGN_OR_RETURN(slot.instance,
                             V8Instance::Create(isolate_, context_.Get(isolate_),
                                                instance_ctor_.Get(isolate_), module, limits));
  }
  const V8Instance::Caps caps{
      .max_memory_bytes = size_t{options_.max_memory_pages} * kWasmPageBytes,
      .max_result_bytes = options_.max_result_bytes};
  Result<std::string> result = slot.instance->Run(inputs, limits, caps);
  if (result.ok() || result.status().code() == StatusCode::kDeadlineExceeded) return result;
  Result<std::string> reported = slot.instance->ReportedErrors(limits);
  if (!reported.ok()) {
    return Status(result.status().code(), result.status().message() + "; get_errors failed: " +
                                              reported.status().message());
  }
  if (reported->empty()) return result;
  return Status(result.status().code(),
                result.status().message() + "; the module reported: " + *reported);
}

V8Sandbox::Slot& V8Sandbox::SlotFor(const V8CompiledModule& module) {
  std::erase_if(slots_, [](const auto& entry) { return entry.second.module.expired(); });
  Slot& slot = slots_[&module];
  if (slot.module.expired()) slot.module = module.weak_from_this();
  return slot;
}

void V8Sandbox::RunPendingTasks() {
  while (v8::platform::PumpMessageLoop(platform_, isolate_)) {
  }
}

}  // namespace higgins::udf
