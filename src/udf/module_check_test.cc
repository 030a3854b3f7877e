#include "udf/module_check.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "udf/test_modules.h"

namespace higgins::udf {
namespace {

using testing::TestModule;

Status CheckError(std::string_view name, const ModuleLimits& limits = {}) {
  auto info = CheckModule(TestModule(name), limits);
  EXPECT_FALSE(info.ok()) << name << " passed";
  return info.ok() ? Status::OK() : info.status();
}

TEST(ModuleCheckTest, MapModule) {
  auto info = CheckModule(TestModule("echo_map"), {});
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->run_kind, RunKind::kMap);
  EXPECT_TRUE(info->has_reset);
  EXPECT_FALSE(info->has_get_errors);
  EXPECT_EQ(info->initial_pages, 1u);
  EXPECT_FALSE(info->max_pages.has_value());
}

TEST(ModuleCheckTest, TablesOverTheLimits) {
  EXPECT_EQ(CheckError("many_tables"),
            Status::InvalidArgument(
                "the module defines 20 tables, more than the limit of 16\n"
                "the module's tables start with 200000000 elements in all, more than the limit of "
                "100000"));
  EXPECT_EQ(CheckError("big_table"),
            Status::InvalidArgument("the module's tables start with 10000000 elements in all, "
                                    "more than the limit of 100000"));
  // Sixteen empty tables are fine.
  EXPECT_TRUE(CheckModule(TestModule("table_grow"), {}).ok());
}

TEST(ModuleCheckTest, HugeDataCountIsRefusedBeforeLibwabt) {
  // A DataCount section of 2^32 - 1 (then 2^28): libwabt would reserve that many segments.
  for (const char* count : {"\xff\xff\xff\xff\x0f", "\x80\x80\x80\x80\x01"}) {
    const std::string bytes = std::string("\0asm\x01\0\0\0\x0c\x05", 10) + count;
    auto info = CheckModule(bytes, {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(info.status().message().find("the module is not valid WebAssembly: the DataCount "
                                           "section declares "),
              std::string::npos)
        << info.status().message();
  }
  // A small wrong count still gets libwabt's own error.
  auto info = CheckModule(std::string("\0asm\x01\0\0\0\x0c\x01\x03", 11), {});
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.status().code(), StatusCode::kInvalidArgument);
}

TEST(ModuleCheckTest, ReduceModuleWithOptionalExports) {
  auto info = CheckModule(TestModule("reduce_with_optional"), {});
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->run_kind, RunKind::kReduce);
  EXPECT_TRUE(info->has_reset);
  EXPECT_TRUE(info->has_get_errors);
  EXPECT_EQ(info->initial_pages, 2u);
  EXPECT_EQ(info->max_pages, 100u);
}

TEST(ModuleCheckTest, SimdIsAccepted) {
  auto info = CheckModule(TestModule("simd_echo"), {});
  ASSERT_TRUE(info.ok()) << info.status().ToString();
}

TEST(ModuleCheckTest, EveryImportIsListed) {
  const Status status = CheckError("imports");
  EXPECT_EQ(status,
            Status::InvalidArgument(
                "the module imports 'env.abort' (a function): UDF modules must import "
                "nothing\n"
                "the module imports 'env.seed' (a global): UDF modules must import "
                "nothing\n"
                "the module imports 'js.table' (a table): UDF modules must import nothing"));
}

TEST(ModuleCheckTest, EveryMissingExportIsListed) {
  EXPECT_EQ(CheckError("missing_exports"),
            Status::InvalidArgument("the module does not export 'memory'\n"
                                    "the module does not export '_malloc'\n"
                                    "the module does not export 'run'"));
}

TEST(ModuleCheckTest, EveryWrongSignatureIsListed) {
  EXPECT_EQ(
      CheckError("wrong_signatures"),
      Status::InvalidArgument(
          "the module's '_malloc' has type (i64) -> i32; it must be (i32) -> i32\n"
          "the module's 'run' has type (f32) -> i32; it must be (i32) -> i32 (map) or (i32, i32) "
          "-> i32 (reduce)\n"
          "the module's 'get_errors' has type (i32) -> i32; it must be () -> i32\n"
          "the module's '_reset' has type () -> i32; it must be () -> ()"));
}

TEST(ModuleCheckTest, ExportsOfTheWrongKind) {
  EXPECT_EQ(CheckError("wrong_kinds"),
            Status::InvalidArgument("the module exports 'memory' as a table; it must be a memory\n"
                                    "the module exports 'run' as a global; it must be a function"));
}

TEST(ModuleCheckTest, InitialMemoryOverTheLimit) {
  EXPECT_EQ(CheckError("big_memory"),
            Status::InvalidArgument("the module's memory starts at 2000 pages of 64 KiB, more than "
                                    "the limit of 1024 pages (64 MiB)"));
  ModuleLimits roomy;
  roomy.max_memory_pages = 2000;
  EXPECT_TRUE(CheckModule(TestModule("big_memory"), roomy).ok());
}

TEST(ModuleCheckTest, NoMemory) {
  EXPECT_EQ(CheckError("no_memory"),
            Status::InvalidArgument(
                "the module has no memory; it must define one and export it as 'memory'"));
}

TEST(ModuleCheckTest, TwoMemoriesAreListedWithTheOtherProblems) {
  EXPECT_EQ(CheckError("two_memories"),
            Status::InvalidArgument("the module has 2 memories; exactly one is allowed\n"
                                    "the module does not export 'run'"));
}

TEST(ModuleCheckTest, SizeOverTheLimitIsRefusedBeforeDecoding) {
  ModuleLimits small;
  small.max_module_bytes = 100;
  const std::string bytes = TestModule("echo_map");
  auto info = CheckModule(bytes, small);
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.status(),
            Status::ResourceExhausted("the module has " + std::to_string(bytes.size()) +
                                      " bytes, more than the limit of 100"));
  EXPECT_EQ(CheckModule(std::string(101, 'x'), small).status().code(),
            StatusCode::kResourceExhausted);
}

TEST(ModuleCheckTest, BytesThatAreNotWasm) {
  auto info = CheckModule("fake:double", {});
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(info.status().message().rfind("the module is not valid WebAssembly: ", 0), 0u)
      << info.status().message();
  EXPECT_NE(info.status().message().find("(at byte offset "), std::string::npos);
  EXPECT_EQ(CheckModule("", {}).status().code(), StatusCode::kInvalidArgument);
}

TEST(ModuleCheckTest, TruncatedModuleNamesTheOffset) {
  const std::string bytes = TestModule("echo_map");
  auto info = CheckModule(std::string_view(bytes).substr(0, bytes.size() - 3), {});
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(info.status().message().find("the module is not valid WebAssembly: "),
            std::string::npos);
  EXPECT_NE(info.status().message().find("(at byte offset "), std::string::npos)
      << info.status().message();
}

TEST(ModuleCheckTest, FunctionBodiesAreValidated) {
  // The echo module with its run body's `local.get 0` (0x20 0x00) turned into `i64.const 0`
  // (0x42 0x00): it decodes, but run then returns an i64.
  std::string bytes = TestModule("echo_map");
  const std::string body("\x20\x00\x0b", 3);
  const size_t at = bytes.rfind(body);
  ASSERT_NE(at, std::string::npos);
  bytes[at] = '\x42';
  auto info = CheckModule(bytes, {});
  ASSERT_FALSE(info.ok());
  EXPECT_NE(info.status().message().find("the module is not valid WebAssembly: "),
            std::string::npos);
  EXPECT_NE(info.status().message().find("type mismatch"), std::string::npos)
      << info.status().message();
}

TEST(ModuleCheckTest, DeepNestingDoesNotExhaustTheStack) {
  // A function body of 500 000 nested blocks (1 MB): libwabt must not recurse per level.
  constexpr int kDepth = 500000;
  std::string body;
  body += '\x00';                                       // no locals
  for (int i = 0; i < kDepth; ++i) body += "\x02\x40";  // block (empty type)
  body.append(kDepth, '\x0b');
  body += std::string("\x41\x00\x0b", 3);  // i32.const 0, end of function
  auto leb = [](uint32_t v) {
    std::string out;
    do {
      uint8_t byte = v & 0x7F;
      v >>= 7;
      if (v != 0) byte |= 0x80;
      out += static_cast<char>(byte);
    } while (v != 0);
    return out;
  };
  std::string code = leb(1) + leb(static_cast<uint32_t>(body.size())) + body;
  std::string module("\0asm\1\0\0\0", 8);
  module += std::string("\x01\x05\x01\x60\x00\x01\x7f", 7);  // type: () -> i32
  module += std::string("\x03\x02\x01\x00", 4);              // one function of type 0
  module += '\x0a' + leb(static_cast<uint32_t>(code.size())) + code;
  // Valid WebAssembly (the whole body was decoded and validated), but not a UDF.
  auto info = CheckModule(module, {});
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.status().message().substr(0, 25), "the module has no memory;")
      << info.status().message().substr(0, 200);
}

TEST(ModuleCheckTest, MutatedModulesAreAnsweredNeverCrash) {
  // libwabt is built with assertions on: malformed input must never reach one. Flip, insert and
  // delete bytes of valid modules; every answer must be a Status.
  // UDF_MUTATION_ROUNDS=<n> runs longer (per module; the seed too: UDF_MUTATION_SEED).
  const char* rounds_env = std::getenv("UDF_MUTATION_ROUNDS");
  const char* seed_env = std::getenv("UDF_MUTATION_SEED");
  const int rounds = rounds_env != nullptr ? std::atoi(rounds_env) : 1500;
  std::mt19937 rng(seed_env != nullptr ? static_cast<uint32_t>(std::atoll(seed_env)) : 20261129u);
  int refused = 0;
  int total = 0;
  for (const char* name : {"echo_map", "reduce_with_optional", "simd_echo", "clang_udf"}) {
    const std::string original = TestModule(name);
    for (int round = 0; round < rounds; ++round) {
      std::string bytes = original;
      const int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits && !bytes.empty(); ++e) {
        const size_t at = rng() % bytes.size();
        switch (rng() % 4) {
          case 0: bytes[at] = static_cast<char>(rng()); break;
          case 1: bytes[at] = static_cast<char>(bytes[at] ^ (1 << (rng() % 8))); break;
          case 2: bytes.insert(at, 1, static_cast<char>(rng())); break;
          default: bytes.erase(at, 1); break;
        }
      }
      auto info = CheckModule(bytes, {});
      ++total;
      if (!info.ok()) {
        ++refused;
        EXPECT_EQ(info.status().code(), StatusCode::kInvalidArgument) << info.status().ToString();
      }
    }
  }
  EXPECT_GT(refused, total / 2);
}

}  // namespace
}  // namespace higgins::udf
