// Hostile and broken modules: each call fails with the documented error, and the same sandbox
// then runs a well-behaved module correctly (a broker thread keeps serving).

#include <gtest/gtest.h>

#include <chrono>

#include "udf/engine.h"
#include "udf/test_modules.h"

namespace higgins::udf {
namespace {

using testing::CompileTestModule;
using testing::Encode;
using testing::SampleBatch;
using testing::V8;

struct HostileCase {
  const char* module;
  StatusCode code;
  std::string message;  // the whole message, or a prefix of it when `prefix_only`
  bool prefix_only = false;
};

class HostileModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto sandbox = V8().NewSandbox();
    ASSERT_TRUE(sandbox.ok()) << sandbox.status().ToString();
    sandbox_ = std::move(sandbox).value();
    echo_ = CompileTestModule("echo_map");
    ASSERT_NE(echo_, nullptr);
  }

  Result<std::string> Call(const CompiledModule& module, std::string_view input) {
    const std::string_view inputs[] = {input};
    CallLimits limits;
    limits.deadline = std::chrono::milliseconds(200);
    return sandbox_->Call(module, inputs, limits);
  }

  void ExpectEchoStillWorks() {
    const std::string input = Encode(SampleBatch(4));
    auto out = Call(*echo_, input);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ(*out, input);
  }

  // Calls `c.module` twice (the second time on a fresh instance) and the echo module after each.
  void Check(const HostileCase& c) {
    SCOPED_TRACE(c.module);
    auto module = CompileTestModule(c.module);
    ASSERT_NE(module, nullptr);
    const std::string input = Encode(SampleBatch(2));
    for (int round = 0; round < 2; ++round) {
      auto out = Call(*module, input);
      ASSERT_FALSE(out.ok()) << "round " << round;
      EXPECT_EQ(out.status().code(), c.code) << out.status().ToString();
      if (c.prefix_only) {
        EXPECT_EQ(out.status().message().substr(0, c.message.size()), c.message)
            << out.status().message();
      } else {
        EXPECT_EQ(out.status().message(), c.message);
      }
      ExpectEchoStillWorks();
    }
  }

  std::unique_ptr<Sandbox> sandbox_;
  std::shared_ptr<const CompiledModule> echo_;
};

TEST_F(HostileModuleTest, InfiniteLoop) {
  Check({"loop", StatusCode::kDeadlineExceeded, "the call of 'run' took longer than 200 ms"});
}

TEST_F(HostileModuleTest, InfiniteLoopInTheStartFunction) {
  Check({"start_loop", StatusCode::kDeadlineExceeded,
         "instantiating the module (its start function) took longer than 200 ms"});
}

TEST_F(HostileModuleTest, OutOfBoundsStore) {
  Check({"oob_store", StatusCode::kInvalidArgument,
         "the module trapped in 'run': RuntimeError: memory access out of bounds"});
}

TEST_F(HostileModuleTest, MemoryGrowBomb) {
  // Grows 16 pages at a time from 1 page up to 1009, the last step under the 1024-page cap,
  // then returns a pointer past the end.
  Check({"grow_bomb", StatusCode::kInvalidArgument,
         "'run' returned a result outside memory: its 8-byte length at 2147483392 is past the "
         "memory's 66125824 bytes"});
}

TEST_F(HostileModuleTest, UnboundedRecursion) {
  Check({"recursion", StatusCode::kInvalidArgument,
         "the module trapped in 'run': RangeError: Maximum call stack size exceeded"});
}

TEST_F(HostileModuleTest, RunReturnsZero) {
  Check({"run_zero", StatusCode::kInvalidArgument,
         "'run' returned 0 (no result: the module failed)"});
}

TEST_F(HostileModuleTest, RunReturnsAPointerAtTheEndOfMemory) {
  Check({"run_past_end", StatusCode::kInvalidArgument,
         "'run' returned a result outside memory: its 8-byte length at 65532 is past the memory's "
         "65536 bytes"});
}

TEST_F(HostileModuleTest, HugeDeclaredLength) {
  Check({"huge_length", StatusCode::kResourceExhausted,
         "the module's result of 1099511627776 bytes is over the limit of 67108864 bytes"});
}

TEST_F(HostileModuleTest, LengthPastTheEndOfMemory) {
  Check({"long_length", StatusCode::kInvalidArgument,
         "'run' returned a result outside memory: 1048576 bytes at 1032, but the memory has 65536 "
         "bytes"});
}

TEST_F(HostileModuleTest, ModuleExplainsItsTrap) {
  Check({"get_errors", StatusCode::kInvalidArgument,
         "the module trapped in 'run': RuntimeError: unreachable; the module reported: bad input: "
         "no column 'data'"});
}

TEST_F(HostileModuleTest, ModuleTextIsSanitisedAndCut) {
  // 5000 bytes: newline, tab, an invalid byte, "é", then 'x's; 1 KiB of it is shown.
  const std::string shown = "\xEF\xBF\xBD\xC3\xA9" + std::string(1024 - 5, 'x') + "...";
  Check({"get_errors_long", StatusCode::kInvalidArgument,
         "'run' returned 0 (no result: the module failed); the module reported: " + shown});
}

TEST_F(HostileModuleTest, GetErrorsTraps) {
  Check({"get_errors_trap", StatusCode::kInvalidArgument,
         "'run' returned 0 (no result: the module failed); get_errors failed: RuntimeError: "
         "unreachable"});
}

TEST_F(HostileModuleTest, GetErrorsNeverReturns) {
  Check({"get_errors_loop", StatusCode::kInvalidArgument,
         "'run' returned 0 (no result: the module failed); get_errors failed: it did not return "
         "within the call's deadline of "
         "200 ms"});
}

TEST_F(HostileModuleTest, TableGrowPastTheCapFails) {
  // table.grow by 10 million returns -1 in all 16 tables (the module traps otherwise), so the
  // call echoes its input; on the same instance, three times.
  auto module = CompileTestModule("table_grow");
  ASSERT_NE(module, nullptr);
  const std::string input = Encode(SampleBatch(3));
  for (int round = 0; round < 3; ++round) {
    auto out = Call(*module, input);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ(*out, input);
  }
  ExpectEchoStillWorks();
}

TEST_F(HostileModuleTest, TablesAtTheCapFitTheDefaultHeap) {
  // 16 tables grown to 100,000 elements each.
  auto module = CompileTestModule("table_hog");
  ASSERT_NE(module, nullptr);
  const std::string input = Encode(SampleBatch(3));
  auto out = Call(*module, input);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(*out, input);
  ExpectEchoStillWorks();
}

TEST(HostileHeapTest, HeapLimitEndsTheCallNotTheProcess) {
  // The same table-growing module in sandboxes whose heap is capped at 8 MiB: the call fails
  // with ResourceExhausted instead of V8 aborting the process, and the sandbox keeps working.
  EngineOptions options;
  options.max_heap_bytes = 8u << 20;
  auto engine = MakeV8Engine(options);
  ASSERT_TRUE(engine.ok()) << engine.status().ToString();
  auto hog = (*engine)->Compile(testing::TestModule("table_hog"));
  ASSERT_TRUE(hog.ok()) << hog.status().ToString();
  auto echo = (*engine)->Compile(testing::TestModule("echo_map"));
  ASSERT_TRUE(echo.ok()) << echo.status().ToString();
  auto sandbox = (*engine)->NewSandbox();
  ASSERT_TRUE(sandbox.ok()) << sandbox.status().ToString();
  const std::string input = Encode(SampleBatch(2));
  const std::string_view inputs[] = {input};
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(round);
    auto out = (*sandbox)->Call(**hog, inputs, CallLimits{});
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.status(),
              Status::ResourceExhausted("the module used more than 8 MiB of engine heap"));
    auto echoed = (*sandbox)->Call(**echo, inputs, CallLimits{});
    ASSERT_TRUE(echoed.ok()) << echoed.status().ToString();
    EXPECT_EQ(*echoed, input);
  }
}

TEST_F(HostileModuleTest, MallocReturnsZero) {
  Check({"malloc_zero", StatusCode::kInvalidArgument, "'_malloc' returned 0 (asked for ",
         /*prefix_only=*/true});
}

TEST_F(HostileModuleTest, MallocReturnsABlockPastTheEnd) {
  Check({"malloc_outside", StatusCode::kInvalidArgument,
         "'_malloc' returned a block outside memory: ", /*prefix_only=*/true});
}

TEST_F(HostileModuleTest, DataSegmentOutsideMemory) {
  Check({"data_out_of_bounds", StatusCode::kInvalidArgument,
         "the module could not be instantiated: ", /*prefix_only=*/true});
}

TEST_F(HostileModuleTest, UploadsThatFailTheCheckNeverReachV8) {
  struct Refused {
    std::string bytes;
    StatusCode code;
    const char* fragment;
  };
  const Refused refused[] = {
      {testing::TestModule("imports"), StatusCode::kInvalidArgument,
       "the module imports 'env.abort' (a function): UDF modules must import nothing"},
      {testing::TestModule("missing_exports"), StatusCode::kInvalidArgument,
       "the module does not export 'run'"},
      {testing::TestModule("wrong_signatures"), StatusCode::kInvalidArgument,
       "the module's 'run' has type (f32) -> i32"},
      {testing::TestModule("big_memory"), StatusCode::kInvalidArgument,
       "the module's memory starts at 2000 pages"},
      {testing::TestModule("big_table"), StatusCode::kInvalidArgument,
       "the module's tables start with 10000000 elements in all"},
      {testing::TestModule("many_tables"), StatusCode::kInvalidArgument,
       "the module defines 20 tables, more than the limit of 16"},
      {std::string("\0asm\x01\0\0\0\x0c\x05\xff\xff\xff\xff\x0f", 15),
       StatusCode::kInvalidArgument, "the DataCount section declares 4294967295 data segments"},
      {"\x7f"
       "ELF not wasm",
       StatusCode::kInvalidArgument, "the module is not valid WebAssembly: "},
      {std::string(33u << 20, '\0'), StatusCode::kResourceExhausted, "more than the limit of"},
  };
  for (const Refused& r : refused) {
    SCOPED_TRACE(r.fragment);
    auto compiled = V8().Compile(r.bytes);
    ASSERT_FALSE(compiled.ok());
    EXPECT_EQ(compiled.status().code(), r.code) << compiled.status().ToString();
    EXPECT_NE(compiled.status().message().find(r.fragment), std::string::npos)
        << compiled.status().message();
    ExpectEchoStillWorks();
  }
}

TEST_F(HostileModuleTest, InputLargerThanMemoryCanHold) {
  const std::string input((64u << 20) - 4, 'x');
  auto out = Call(*echo_, input);
  EXPECT_EQ(out.status().code(), StatusCode::kResourceExhausted) << out.status().ToString();
  ExpectEchoStillWorks();
}

}  // namespace
}  // namespace higgins::udf
