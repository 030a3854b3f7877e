#include "udf/v8_instance.h"

#include <v8-array-buffer.h>
#include <v8-exception.h>
#include <v8-isolate.h>
#include <v8-primitive.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "udf/framing.h"
#include "udf/guest_text.h"

namespace higgins::udf {
namespace {

v8::Local<v8::String> Name(v8::Isolate* isolate, std::string_view name) {
  return v8::String::NewFromUtf8(isolate, name.data(), v8::NewStringType::kInternalized,
                                 static_cast<int>(name.size()))
      .ToLocalChecked();
}

// What V8 says about the exception `try_catch` caught, e.g. "RuntimeError: unreachable". The
// exception is an error object of V8's own (no JS but V8's runs in the isolate), so ToString
// runs V8's built-in Error.prototype.toString.
std::string ExceptionText(v8::Isolate* isolate, v8::Local<v8::Context> context,
                          const v8::TryCatch& try_catch) {
  v8::Local<v8::String> text;
  if (!try_catch.HasCaught() || !try_catch.Exception()->ToString(context).ToLocal(&text)) {
    return "unknown error";
  }
  v8::String::Utf8Value utf8(isolate, text);
  const std::string_view bytes(*utf8 == nullptr ? "" : *utf8, static_cast<size_t>(utf8.length()));
  return SanitizeGuestText(bytes.substr(0, kMaxGuestTextBytes), bytes.size() > kMaxGuestTextBytes);
}

// The error for a V8 call that returned nothing: it was terminated (by the watchdog, or by the
// sandbox's heap limit, which replaces this error with its own), or it threw.
Status CallFailure(v8::Isolate* isolate, v8::Local<v8::Context> context,
                   const v8::TryCatch& try_catch, std::string prefix,
                   std::string timeout_message) {
  if (try_catch.HasTerminated() || isolate->IsExecutionTerminating()) {
    return Status::DeadlineExceeded(std::move(timeout_message));
  }
  return Status::InvalidArgument(std::move(prefix) + ExceptionText(isolate, context, try_catch));
}

std::string Milliseconds(const CallLimits& limits) {
  return std::to_string(limits.deadline.count()) + " ms";
}

// What a terminated call of `run` (or of `_reset` and `_malloc` before it) is.
std::string RunTimeout(const CallLimits& limits) {
  return "the call of 'run' took longer than " + Milliseconds(limits);
}

std::string TrapPrefix(std::string_view name) {
  return "the module trapped in '" + std::string(name) + "': ";
}

// Binds export `name`; `required` ones must exist (CheckModule made sure they do).
Status BindFunction(v8::Isolate* isolate, v8::Local<v8::Context> context,
                    v8::Local<v8::Object> exports, std::string_view name,
                    v8::Global<v8::Function>& out) {
  v8::Local<v8::Value> value;
  if (!exports->Get(context, Name(isolate, name)).ToLocal(&value) || !value->IsFunction()) {
    return Status::Internal("the instance does not export function '" + std::string(name) + "'");
  }
  out.Reset(isolate, value.As<v8::Function>());
  return Status::OK();
}

std::string OutsideMemory(std::string_view what, uint64_t bytes, uint64_t at, size_t memory) {
  return std::string(what) + std::to_string(bytes) + " bytes at " + std::to_string(at) +
         ", but the memory has " + std::to_string(memory) + " bytes";
}

}  // namespace

Result<std::unique_ptr<V8Instance>> V8Instance::Create(v8::Isolate* isolate,
                                                       v8::Local<v8::Context> context,
                                                       v8::Local<v8::Function> instance_ctor,
                                                       const V8CompiledModule& module,
                                                       const CallLimits& limits) {
  constexpr std::string_view kFailed = "the module could not be instantiated: ";
  const std::string timeout =
      "instantiating the module (its start function) took longer than " + Milliseconds(limits);
  v8::TryCatch try_catch(isolate);
  v8::Local<v8::WasmModuleObject> wasm_module;
  if (!v8::WasmModuleObject::FromCompiledModule(isolate, module.compiled()).ToLocal(&wasm_module)) {
    return CallFailure(isolate, context, try_catch, std::string(kFailed), timeout);
  }
  // No imports: a module importing anything fails here (CheckModule refuses them earlier).
  v8::Local<v8::Value> args[] = {wasm_module, v8::Object::New(isolate)};
  v8::Local<v8::Object> instance;
  if (!instance_ctor->NewInstance(context, 2, args).ToLocal(&instance)) {
    return CallFailure(isolate, context, try_catch, std::string(kFailed), timeout);
  }
  v8::Local<v8::Value> exports;
  if (!instance->Get(context, Name(isolate, "exports")).ToLocal(&exports) || !exports->IsObject()) {
    return Status::Internal("the WebAssembly instance has no exports object");
  }
  const v8::Local<v8::Object> object = exports.As<v8::Object>();
  std::unique_ptr<V8Instance> out(new V8Instance(isolate, context));
  v8::Local<v8::Value> memory;
  if (!object->Get(context, Name(isolate, "memory")).ToLocal(&memory) ||
      !memory->IsWasmMemoryObject()) {
    return Status::Internal("the instance does not export memory 'memory'");
  }
  out->memory_.Reset(isolate, memory.As<v8::WasmMemoryObject>());
  HIGGINS_RETURN_IF_ERROR(BindFunction(isolate, context, object, "_malloc", out->malloc_));
  HIGGINS_RETURN_IF_ERROR(BindFunction(isolate, context, object, "run", out->run_));
  const ModuleInfo& info = module.info();
  if (info.has_reset) {
    HIGGINS_RETURN_IF_ERROR(BindFunction(isolate, context, object, "_reset", out->reset_));
  }
  if (info.has_get_errors) {
    HIGGINS_RETURN_IF_ERROR(BindFunction(isolate, context, object, "get_errors", out->get_errors_));
  }
  return out;
}

Result<std::string> V8Instance::Run(std::span<const std::string_view> inputs,
                                    const CallLimits& limits, const Caps& caps) {
  if (!reset_.IsEmpty()) {
    HIGGINS_RETURN_IF_ERROR(
        Invoke(reset_, "_reset", {}, TrapPrefix("_reset"), RunTimeout(limits)).status());
  }
  std::array<int32_t, 2> pointers{};
  if (inputs.size() > pointers.size()) {
    return Status::Internal("'run' takes at most " + std::to_string(pointers.size()) + " inputs");
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    HIGGINS_ASSIGN_OR_RETURN(pointers[i], Stage(inputs[i], limits, caps.max_memory_bytes));
  }
  HIGGINS_ASSIGN_OR_RETURN(const int32_t result,
                           Invoke(run_, "run", std::span(pointers).first(inputs.size()),
                                  TrapPrefix("run"), RunTimeout(limits)));
  return ReadResult(result, caps);
}

Result<int32_t> V8Instance::Invoke(const v8::Global<v8::Function>& fn, std::string_view name,
                                   std::span<const int32_t> args, const std::string& trap_prefix,
                                   const std::string& timeout_message) {
  const v8::Local<v8::Context> context = context_.Get(isolate_);
  std::array<v8::Local<v8::Value>, 2> argv;
  const size_t argc = std::min(args.size(), argv.size());
  for (size_t i = 0; i < argc; ++i) argv[i] = v8::Integer::New(isolate_, args[i]);
  v8::TryCatch try_catch(isolate_);
  v8::Local<v8::Value> result;
  if (!fn.Get(isolate_)
           ->Call(context, v8::Undefined(isolate_), static_cast<int>(argc), argv.data())
           .ToLocal(&result)) {
    return CallFailure(isolate_, context, try_catch, trap_prefix, timeout_message);
  }
  if (result->IsUndefined()) return 0;
  if (!result->IsInt32()) {
    return Status::Internal("'" + std::string(name) + "' returned something other than an i32");
  }
  return result.As<v8::Int32>()->Value();
}

Result<int32_t> V8Instance::Stage(std::string_view input, const CallLimits& limits,
                                  size_t max_memory_bytes) {
  const uint64_t need = kLengthPrefixBytes + input.size();
  if (need > max_memory_bytes || need > static_cast<uint64_t>(INT32_MAX)) {
    return Status::ResourceExhausted("an input of " + std::to_string(input.size()) +
                                     " bytes cannot fit in the module's memory of at most " +
                                     std::to_string(max_memory_bytes) + " bytes");
  }
  const int32_t size_arg = static_cast<int32_t>(need);
  HIGGINS_ASSIGN_OR_RETURN(const int32_t pointer,
                           Invoke(malloc_, "_malloc", std::span(&size_arg, 1),
                                  TrapPrefix("_malloc"), RunTimeout(limits)));
  const Memory memory = CurrentMemory();
  if (pointer == 0) {
    if (memory.size + need > max_memory_bytes) {
      return Status::ResourceExhausted(
          "'_malloc' returned 0 for an input of " + std::to_string(input.size()) +
          " bytes: the module's memory (" + std::to_string(memory.size) +
          " bytes) cannot grow past the limit of " + std::to_string(max_memory_bytes) + " bytes");
    }
    return Status::InvalidArgument("'_malloc' returned 0 (asked for " + std::to_string(need) +
                                   " bytes)");
  }
  const uint64_t at = static_cast<uint32_t>(pointer);
  if (at > memory.size || need > memory.size - at) {
    return Status::InvalidArgument(
        OutsideMemory("'_malloc' returned a block outside memory: ", need, at, memory.size));
  }
  StoreLengthPrefix(memory.base + at, input.size());
  if (!input.empty()) {
    std::memcpy(memory.base + at + kLengthPrefixBytes, input.data(), input.size());
  }
  return pointer;
}

Result<std::string> V8Instance::ReadResult(int32_t pointer, const Caps& caps) {
  if (pointer == 0) {
    return Status::InvalidArgument("'run' returned 0 (no result: the module failed)");
  }
  const Memory memory = CurrentMemory();
  const uint64_t at = static_cast<uint32_t>(pointer);
  if (at > memory.size || kLengthPrefixBytes > memory.size - at) {
    return Status::InvalidArgument("'run' returned a result outside memory: its 8-byte length at " +
                                   std::to_string(at) + " is past the memory's " +
                                   std::to_string(memory.size) + " bytes");
  }
  const uint64_t length = LoadLengthPrefix(memory.base + at);
  if (length > caps.max_result_bytes) {
    return Status::ResourceExhausted("the module's result of " + std::to_string(length) +
                                     " bytes is over the limit of " +
                                     std::to_string(caps.max_result_bytes) + " bytes");
  }
  const uint64_t data = at + kLengthPrefixBytes;
  if (length > memory.size - data) {
    return Status::InvalidArgument(
        OutsideMemory("'run' returned a result outside memory: ", length, data, memory.size));
  }
  return std::string(reinterpret_cast<const char*>(memory.base + data), length);
}

Result<std::string> V8Instance::ReportedErrors(const CallLimits& limits) {
  if (get_errors_.IsEmpty()) return std::string();
  HIGGINS_ASSIGN_OR_RETURN(
      const int32_t pointer,
      Invoke(get_errors_, "get_errors", {}, /*trap_prefix=*/"",
             "it did not return within the call's deadline of " + Milliseconds(limits)));
  if (pointer == 0) return std::string();
  const Memory memory = CurrentMemory();
  const uint64_t at = static_cast<uint32_t>(pointer);
  if (at > memory.size || kLengthPrefixBytes > memory.size - at) {
    return Status::InvalidArgument("it returned a pointer outside memory: its 8-byte length at " +
                                   std::to_string(at) + " is past the memory's " +
                                   std::to_string(memory.size) + " bytes");
  }
  const uint64_t length = LoadLengthPrefix(memory.base + at);
  const uint64_t data = at + kLengthPrefixBytes;
  const uint64_t shown = std::min<uint64_t>(length, kMaxGuestTextBytes);
  if (shown > memory.size - data) {
    return Status::InvalidArgument(
        OutsideMemory("it returned text outside memory: ", shown, data, memory.size));
  }
  return SanitizeGuestText(
      std::string_view(reinterpret_cast<const char*>(memory.base + data), shown), length > shown);
}

size_t V8Instance::MemoryBytes() {
  return CurrentMemory().size;
}

V8Instance::Memory V8Instance::CurrentMemory() {
  const v8::Local<v8::ArrayBuffer> buffer = memory_.Get(isolate_)->Buffer();
  return {static_cast<uint8_t*>(buffer->Data()), buffer->ByteLength()};
}

}  // namespace higgins::udf
