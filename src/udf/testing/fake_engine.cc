#include "udf/testing/fake_engine.h"

#include <vector>

#include "higgins/arrow/ipc/reader.h"
#include "udf/abi.h"
#include "udf/guest_text.h"

namespace higgins::udf {
namespace {

constexpr std::string_view kPrefix = "fake:";

class FakeCompiledModule final : public CompiledModule {
 public:
  FakeCompiledModule(ModuleInfo info, FakeEngine::Fn fn)
      : CompiledModule(std::move(info)), fn_(std::move(fn)) {}
  const FakeEngine::Fn& fn() const { return fn_; }

 private:
  FakeEngine::Fn fn_;
};

Result<arrow::RecordBatch> DecodeInput(std::string_view bytes, size_t index) {
  auto read = arrow::ipc::ReadStream(Buffer::Copy(bytes));
  if (!read.ok()) {
    return Status::InvalidArgument("input " + std::to_string(index) +
                                   " is not a valid Arrow IPC stream: " + read.status().message());
  }
  if (read->batches.size() != 1) {
    return Status::InvalidArgument("input " + std::to_string(index) + " has " +
                                   std::to_string(read->batches.size()) +
                                   " record batches; exactly one is expected");
  }
  return std::move(read->batches.front());
}

class FakeSandbox final : public Sandbox {
 public:
  explicit FakeSandbox(std::shared_ptr<std::atomic<int64_t>> calls) : calls_(std::move(calls)) {}

  Result<std::string> Call(const CompiledModule& module, std::span<const std::string_view> inputs,
                           const CallLimits&) override {
    ++*calls_;
    const auto* fake = dynamic_cast<const FakeCompiledModule*>(&module);
    if (fake == nullptr) {
      return Status::InvalidArgument("the module was not compiled by the fake engine");
    }
    HIGGINS_RETURN_IF_ERROR(CheckInputCount(module.info(), inputs.size()));
    std::vector<arrow::RecordBatch> batches;
    for (size_t i = 0; i < inputs.size(); ++i) {
      HIGGINS_ASSIGN_OR_RETURN(arrow::RecordBatch batch, DecodeInput(inputs[i], i));
      batches.push_back(std::move(batch));
    }
    HIGGINS_ASSIGN_OR_RETURN(arrow::RecordBatch result, fake->fn()(batches));
    return EncodeBatch(result);
  }

 private:
  const std::shared_ptr<std::atomic<int64_t>> calls_;
};

}  // namespace

void FakeEngine::Register(std::string name, RunKind kind, Fn fn) {
  std::lock_guard lock(mu_);
  modules_[std::move(name)] = Registered{kind, std::move(fn)};
}

Result<FakeEngine::Registered> FakeEngine::Find(std::string_view bytes) const {
  if (bytes.substr(0, kPrefix.size()) == kPrefix) {
    std::lock_guard lock(mu_);
    auto it = modules_.find(bytes.substr(kPrefix.size()));
    if (it != modules_.end()) return it->second;
  }
  return Status::InvalidArgument("the fake engine has no module registered as '" +
                                 SanitizeGuestText(bytes.substr(0, 64), bytes.size() > 64) + "'");
}

Result<ModuleInfo> FakeEngine::Inspect(std::string_view bytes) const {
  HIGGINS_ASSIGN_OR_RETURN(Registered registered, Find(bytes));
  ModuleInfo info;
  info.run_kind = registered.kind;
  return info;
}

Result<std::shared_ptr<const CompiledModule>> FakeEngine::Compile(std::string_view bytes) {
  HIGGINS_ASSIGN_OR_RETURN(Registered registered, Find(bytes));
  ModuleInfo info;
  info.run_kind = registered.kind;
  return std::shared_ptr<const CompiledModule>(
      std::make_shared<FakeCompiledModule>(std::move(info), std::move(registered.fn)));
}

Result<std::unique_ptr<Sandbox>> FakeEngine::NewSandbox() {
  return std::unique_ptr<Sandbox>(std::make_unique<FakeSandbox>(calls_));
}

}  // namespace higgins::udf
