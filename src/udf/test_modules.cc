#include "udf/test_modules.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "udf/abi.h"

namespace higgins::udf::testing {

std::string TestModule(std::string_view name) {
  const std::string path =
      std::string(HIGGINS_UDF_TESTDATA_DIR) + "/" + std::string(name) + ".wasm";
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): a test helper, as SampleBatch(3, 10)
arrow::RecordBatch SampleBatch(int rows, int32_t first_value) {
  arrow::ArrayBuilder ids(arrow::DataType::Utf8());
  arrow::ArrayBuilder data(arrow::DataType::Int32());
  for (int i = 0; i < rows; ++i) {
    EXPECT_TRUE(ids.AppendBinary(std::to_string(i)).ok());
    data.AppendPrimitive<int32_t>(first_value + i);
  }
  auto schema = arrow::MakeSchema({arrow::Field("id", arrow::DataType::Utf8(), false),
                                   arrow::Field("data", arrow::DataType::Int32())});
  auto batch = arrow::RecordBatch::Make(schema, rows, {ids.Finish(), data.Finish()});
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

std::string Encode(const arrow::RecordBatch& batch) {
  auto bytes = EncodeBatch(batch);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  return bytes.ok() ? *bytes : std::string();
}

Engine& V8() {
  static Engine* engine = [] {
    auto made = MakeV8Engine(EngineOptions{});
    if (!made.ok()) {
      ADD_FAILURE() << made.status().ToString();
      std::abort();
    }
    return made->release();
  }();
  return *engine;
}

std::shared_ptr<const CompiledModule> CompileTestModule(std::string_view name) {
  auto compiled = V8().Compile(TestModule(name));
  EXPECT_TRUE(compiled.ok()) << name << ": " << compiled.status().ToString();
  return compiled.ok() ? *compiled : nullptr;
}

}  // namespace higgins::udf::testing

#if defined(__SANITIZE_ADDRESS__)
// A small quarantine: V8EngineTest.LeakingModuleIsRecycled measures resident memory, which
// AddressSanitizer's default 256 MiB of freed-but-quarantined blocks would swamp.
extern "C" const char* __asan_default_options() {
  return "quarantine_size_mb=16";
}
#endif
