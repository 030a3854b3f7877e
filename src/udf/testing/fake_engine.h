#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>

#include "higgins/arrow/record_batch.h"
#include "udf/engine.h"

namespace higgins::udf {

/// An Engine whose "modules" are C++ functions, for tests of the code that runs UDFs (the
/// derived-stream processors). It keeps the real data path: inputs arrive as Arrow IPC streams
/// and results leave as EncodeBatch's streams, so callers exercise their encoding and
/// DecodeResult exactly as with V8.
///
/// Thread-safety: every method may be called from any thread; sandboxes, like real ones, belong
/// to one thread each.
class FakeEngine : public Engine {
 public:
  using Fn = std::function<Result<arrow::RecordBatch>(std::span<const arrow::RecordBatch> inputs)>;

  /// Registers a module whose bytes are "fake:<name>"; Inspect reports `kind`. Registering a
  /// name again replaces the function for later Compiles.
  void Register(std::string name, RunKind kind, Fn fn);
  /// Total Call()s on every sandbox so far, failed ones included.
  int64_t calls() const { return calls_->load(); }

  /// "fake:<name>" registered: ModuleInfo{kind}. Anything else: InvalidArgument.
  Result<ModuleInfo> Inspect(std::string_view bytes) const override;
  /// A module bound to the registered function (as Inspect for unknown bytes).
  Result<std::shared_ptr<const CompiledModule>> Compile(std::string_view bytes) override;
  /// Its Call decodes each input (one IPC stream with exactly one batch, else InvalidArgument),
  /// calls the function and returns EncodeBatch of its result; an error from the function is
  /// returned as is. InvalidArgument for a wrong number of inputs or a module from another
  /// engine. Limits are ignored.
  Result<std::unique_ptr<Sandbox>> NewSandbox() override;

 private:
  struct Registered {
    RunKind kind;
    Fn fn;
  };
  Result<Registered> Find(std::string_view bytes) const;

  mutable std::mutex mu_;
  std::map<std::string, Registered, std::less<>> modules_;  // guarded by mu_
  /// Shared with the sandboxes, which may outlive the engine.
  std::shared_ptr<std::atomic<int64_t>> calls_ = std::make_shared<std::atomic<int64_t>>(0);
};

}  // namespace higgins::udf
