#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>
#include <vector>

#include "udf/abi.h"
#include "udf/engine.h"
#include "udf/framing.h"
#include "udf/test_modules.h"
#include "udf/testing/fake_engine.h"

namespace higgins::udf {
namespace {

using testing::CompileTestModule;
using testing::Encode;
using testing::SampleBatch;
using testing::TestModule;
using testing::V8;
using Clock = std::chrono::steady_clock;

std::unique_ptr<Sandbox> NewSandbox() {
  auto sandbox = V8().NewSandbox();
  EXPECT_TRUE(sandbox.ok()) << sandbox.status().ToString();
  return sandbox.ok() ? std::move(sandbox).value() : nullptr;
}

Result<std::string> CallMap(Sandbox& sandbox, const CompiledModule& module, std::string_view in,
                            const CallLimits& limits = {}) {
  const std::string_view inputs[] = {in};
  return sandbox.Call(module, inputs, limits);
}

int64_t ResidentKiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6));
  }
  return 0;
}

TEST(V8EngineTest, EchoMapReturnsItsInputBytes) {
  auto module = CompileTestModule("echo_map");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->info().run_kind, RunKind::kMap);
  auto sandbox = NewSandbox();
  const arrow::RecordBatch batch = SampleBatch(3);
  const std::string input = Encode(batch);
  for (int i = 0; i < 3; ++i) {
    auto out = CallMap(*sandbox, *module, input);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ(*out, input);
    auto decoded = DecodeResult(*out, batch.schema());
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    EXPECT_TRUE(decoded->Equals(batch));
  }
}

TEST(V8EngineTest, EmptyAndLargeInputs) {
  auto module = CompileTestModule("echo_map");
  auto sandbox = NewSandbox();
  for (size_t size : {size_t{0}, size_t{1}, size_t{65536}, size_t{5} << 20}) {
    SCOPED_TRACE(size);
    std::string input(size, '\0');
    for (size_t i = 0; i < size; ++i) input[i] = static_cast<char>(i * 7);
    auto out = CallMap(*sandbox, *module, input);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ(*out, input);
  }
}

TEST(V8EngineTest, EchoReduceReturnsCur) {
  auto module = CompileTestModule("echo_reduce");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->info().run_kind, RunKind::kReduce);
  auto sandbox = NewSandbox();
  const std::string prev = Encode(SampleBatch(3, 10));
  const std::string cur = Encode(SampleBatch(3, 1));
  const std::string_view inputs[] = {prev, cur};
  auto out = sandbox->Call(*module, inputs, {});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(*out, cur);
}

TEST(V8EngineTest, SimdModuleRuns) {
  auto module = CompileTestModule("simd_echo");
  auto sandbox = NewSandbox();
  const std::string input = Encode(SampleBatch(2));
  auto out = CallMap(*sandbox, *module, input);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(*out, input);
}

TEST(V8EngineTest, ModuleBuiltByClangRuns) {
  // Function pointers through a table, data segments, a stack pointer global, get_errors.
  auto module = CompileTestModule("clang_udf");
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(module->info().has_reset);
  EXPECT_TRUE(module->info().has_get_errors);
  auto sandbox = NewSandbox();
  const std::string input = Encode(SampleBatch(3));
  for (int i = 0; i < 3; ++i) {
    auto out = CallMap(*sandbox, *module, input);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ(*out, input);
  }
}

TEST(V8EngineTest, WrongNumberOfInputs) {
  auto map = CompileTestModule("echo_map");
  auto reduce = CompileTestModule("echo_reduce");
  auto sandbox = NewSandbox();
  const std::string input = Encode(SampleBatch(1));
  const std::string_view two[] = {input, input};
  auto out = sandbox->Call(*map, two, {});
  EXPECT_EQ(out.status(),
            Status::InvalidArgument("the module's 'run' is a map and takes 1 input(s); 2 given"));
  out = CallMap(*sandbox, *reduce, input);
  EXPECT_EQ(out.status(), Status::InvalidArgument(
                              "the module's 'run' is a reduce and takes 2 input(s); 1 given"));
}

TEST(V8EngineTest, InspectAndCompileCheckTheUpload) {
  auto info = V8().Inspect(TestModule("echo_reduce"));
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->run_kind, RunKind::kReduce);
  auto bad = V8().Inspect(TestModule("missing_exports"));
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  auto compiled = V8().Compile(TestModule("imports"));
  ASSERT_FALSE(compiled.ok());
  EXPECT_NE(compiled.status().message().find("must import nothing"), std::string::npos);
  compiled = V8().Compile("\0asm garbage");
  EXPECT_EQ(compiled.status().code(), StatusCode::kInvalidArgument);
}

TEST(V8EngineTest, EngineOptionsCannotChangeInTheProcess) {
  V8();
  EngineOptions other;
  other.max_memory_pages = 16;
  auto engine = MakeV8Engine(other);
  ASSERT_FALSE(engine.ok());
  EXPECT_EQ(engine.status().code(), StatusCode::kInternal);
  EngineOptions same;
  same.max_result_bytes = 1024;  // per engine: fine
  EXPECT_TRUE(MakeV8Engine(same).ok());
}

TEST(V8EngineTest, ResultOverTheEngineLimit) {
  EngineOptions options;
  options.max_result_bytes = 100;
  auto engine = MakeV8Engine(options);
  ASSERT_TRUE(engine.ok()) << engine.status().ToString();
  auto module = (*engine)->Compile(TestModule("echo_map"));
  ASSERT_TRUE(module.ok());
  auto sandbox = (*engine)->NewSandbox();
  ASSERT_TRUE(sandbox.ok());
  auto out = CallMap(**sandbox, **module, std::string(101, 'x'));
  EXPECT_EQ(out.status(), Status::ResourceExhausted(
                              "the module's result of 101 bytes is over the limit of 100 bytes"));
  EXPECT_TRUE(CallMap(**sandbox, **module, std::string(100, 'x')).ok());
}

TEST(V8EngineTest, ModulesFromAnotherEngineAreRefused) {
  FakeEngine fake;
  fake.Register("id", RunKind::kMap, [](auto inputs) { return inputs[0]; });
  auto module = fake.Compile("fake:id");
  ASSERT_TRUE(module.ok());
  auto sandbox = NewSandbox();
  EXPECT_EQ(CallMap(*sandbox, **module, Encode(SampleBatch(1))).status(),
            Status::InvalidArgument("the module was not compiled by the V8 engine"));
}

TEST(V8EngineTest, DestroyedModuleIsNotConfusedWithANewOne) {
  // Instances are cached by module address; a new module at a freed address must not reuse the
  // old module's instance.
  auto sandbox = NewSandbox();
  const std::string input = Encode(SampleBatch(2));
  for (int i = 0; i < 6; ++i) {
    auto module = CompileTestModule(i % 2 == 0 ? "echo_map" : "run_zero");
    auto out = CallMap(*sandbox, *module, input);
    if (i % 2 == 0) {
      ASSERT_TRUE(out.ok()) << out.status().ToString();
    } else {
      EXPECT_EQ(out.status(),
                Status::InvalidArgument("'run' returned 0 (no result: the module failed)"));
    }
  }
}

TEST(V8EngineTest, SandboxAndModuleOutliveTheEngine) {
  auto engine = MakeV8Engine(EngineOptions{});
  ASSERT_TRUE(engine.ok());
  auto module = (*engine)->Compile(TestModule("echo_map"));
  ASSERT_TRUE(module.ok());
  auto sandbox = (*engine)->NewSandbox();
  ASSERT_TRUE(sandbox.ok());
  engine->reset();
  const std::string input = Encode(SampleBatch(2));
  auto out = CallMap(**sandbox, **module, input);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(*out, input);
}

TEST(V8EngineTest, TwoThreadsShareOneCompiledModule) {
  auto module = CompileTestModule("echo_map");
  ASSERT_NE(module, nullptr);
  constexpr int kCalls = 2000;
  std::atomic<int> failures{0};
  auto worker = [&](int seed) {
    auto sandbox = V8().NewSandbox();
    if (!sandbox.ok()) {
      ++failures;
      return;
    }
    for (int i = 0; i < kCalls; ++i) {
      const std::string input = Encode(SampleBatch(1 + (i + seed) % 5, seed * 1000 + i));
      auto out = CallMap(**sandbox, *module, input);
      if (!out.ok() || *out != input) ++failures;
    }
  };
  std::thread a(worker, 1);
  std::thread b(worker, 2);
  a.join();
  b.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(V8EngineTest, CompileFromAnyThread) {
  // Compiles on two threads at once (serialised on the compile isolate), runs on this one.
  std::vector<std::shared_ptr<const CompiledModule>> modules(20);
  auto compile = [&](size_t first) {
    for (size_t i = first; i < modules.size(); i += 2) {
      auto compiled = V8().Compile(TestModule(i % 4 < 2 ? "echo_map" : "clang_udf"));
      if (compiled.ok()) modules[i] = *compiled;
    }
  };
  std::thread a(compile, 0);
  std::thread b(compile, 1);
  a.join();
  b.join();
  auto sandbox = NewSandbox();
  const std::string input = Encode(SampleBatch(2));
  for (const auto& module : modules) {
    ASSERT_NE(module, nullptr);
    auto out = CallMap(*sandbox, *module, input);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ(*out, input);
  }
}

TEST(V8EngineTest, DeadlineStopsAnInfiniteLoop) {
  auto loop = CompileTestModule("loop");
  auto echo = CompileTestModule("echo_map");
  auto sandbox = NewSandbox();
  CallLimits limits;
  limits.deadline = std::chrono::milliseconds(100);
  const auto start = Clock::now();
  auto out = CallMap(*sandbox, *loop, Encode(SampleBatch(1)), limits);
  const auto elapsed = Clock::now() - start;
  EXPECT_EQ(out.status(), Status::DeadlineExceeded("the call of 'run' took longer than 100 ms"));
  EXPECT_GE(elapsed, std::chrono::milliseconds(100));
  EXPECT_LT(elapsed, std::chrono::seconds(1));
  const std::string input = Encode(SampleBatch(2));
  auto ok = CallMap(*sandbox, *echo, input, limits);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(*ok, input);
}

TEST(V8EngineTest, LeakingModuleIsRecycled) {
  // leak_map exports `_reset` (so its instance is kept) but never frees: every 1 MiB input
  // stays in its memory. Without recycling its memory would hit the 64 MiB cap after about 63
  // calls.
  auto leak = CompileTestModule("leak_map");
  auto sandbox = NewSandbox();
  const std::string input(1 << 20, 'x');
  CallLimits limits;
  limits.recycle_memory_bytes = 8u << 20;
  const int64_t rss_before = ResidentKiB();
  for (int i = 0; i < 300; ++i) {
    auto out = CallMap(*sandbox, *leak, input, limits);
    ASSERT_TRUE(out.ok()) << "call " << i << ": " << out.status().ToString();
    ASSERT_EQ(out->size(), input.size());
  }
  const int64_t growth_mib = (ResidentKiB() - rss_before) >> 10;
  std::printf("resident memory grew by %lld MiB over 300 calls that leaked 1 MiB each\n",
              static_cast<long long>(growth_mib));
  EXPECT_LT(growth_mib, 150);

  // The control: never recycled, the same module runs out of memory.
  limits.recycle_memory_bytes = SIZE_MAX;
  Status last;
  for (int i = 0; i < 80 && last.ok(); ++i) last = CallMap(*sandbox, *leak, input, limits).status();
  EXPECT_EQ(last.code(), StatusCode::kResourceExhausted) << last.ToString();
  EXPECT_NE(last.message().find("cannot grow past the limit of 67108864 bytes"), std::string::npos)
      << last.ToString();
}

// Runs `fn` on a thread with a `stack_bytes` stack.
void RunOnThreadWithStack(size_t stack_bytes, std::function<void()> fn) {
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, stack_bytes), 0);
  pthread_t thread;
  auto body = [](void* arg) -> void* {
    (*static_cast<std::function<void()>*>(arg))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, body, &fn), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

TEST(V8EngineTest, RecursionOnASmallThreadStackIsAnError) {
  // V8 assumes 984 KiB of stack; on this 768 KiB thread a module recursing to V8's default
  // limit would run off the stack and crash the process.
  auto recursion = CompileTestModule("recursion");
  auto echo = CompileTestModule("echo_map");
  RunOnThreadWithStack(768 << 10, [&] {
    auto sandbox = NewSandbox();
    ASSERT_NE(sandbox, nullptr);
    auto out = CallMap(*sandbox, *recursion, "x");
    EXPECT_EQ(out.status(),
              Status::InvalidArgument(
                  "the module trapped in 'run': RangeError: Maximum call stack size exceeded"));
    EXPECT_TRUE(CallMap(*sandbox, *echo, "x").ok());
  });
}

TEST(V8EngineDeathTest, HostSegfaultIsStillACrash) {
  // V8's trap handler takes over SIGSEGV. A fault in wasm code becomes a trap; one anywhere else
  // must still end the process (under AddressSanitizer, with its report), not be swallowed.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
#if defined(__SANITIZE_ADDRESS__)
  constexpr const char* kReport = "AddressSanitizer: SEGV";
#else
  constexpr const char* kReport = "";
#endif
  EXPECT_DEATH(
      {
        auto module = CompileTestModule("oob_store");
        auto sandbox = NewSandbox();
        if (CallMap(*sandbox, *module, "x").status().message().find("out of bounds") ==
            std::string::npos) {
          std::exit(0);  // the trap did not happen: fail the death test
        }
        // Not nullptr, which UndefinedBehaviorSanitizer would report before the fault.
        volatile uintptr_t unmapped = 16;
        *reinterpret_cast<volatile int*>(unmapped) = 1;
      },
      kReport);
}

TEST(V8EngineTest, Timings) {
  // Not a benchmark: prints what Compile and Call cost here, for the record.
  auto micros = [](Clock::duration d) {
    return static_cast<long long>(std::chrono::duration_cast<std::chrono::microseconds>(d).count());
  };
  CompileTestModule("echo_map");  // creates the compile isolate, if no test did
  // A custom section with a fresh nonce: V8 caches native modules by their bytes.
  std::string bytes = TestModule("clang_udf");
  const int64_t nonce = Clock::now().time_since_epoch().count();
  bytes += std::string("\x00\x0e\x05nonce", 8);
  bytes.append(reinterpret_cast<const char*>(&nonce), sizeof(nonce));
  auto start = Clock::now();
  auto module = V8().Compile(bytes);
  const auto compile_us = micros(Clock::now() - start);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  start = Clock::now();
  auto sandbox = NewSandbox();
  const auto sandbox_us = micros(Clock::now() - start);
  const std::string input = Encode(SampleBatch(3));
  start = Clock::now();
  ASSERT_TRUE(CallMap(*sandbox, **module, input).ok());
  const auto first_call_us = micros(Clock::now() - start);
  constexpr int kCalls = 20000;
  start = Clock::now();
  for (int i = 0; i < kCalls; ++i) ASSERT_TRUE(CallMap(*sandbox, **module, input).ok());
  const auto call_ns = micros(Clock::now() - start) * 1000 / kCalls;
  std::printf(
      "compile (%zu-byte module) %lld us, new sandbox %lld us, first call (instantiates) %lld us, "
      "call (%zu-byte batch) %lld ns\n",
      bytes.size(), compile_us, sandbox_us, first_call_us, input.size(), call_ns);
}

}  // namespace
}  // namespace higgins::udf
