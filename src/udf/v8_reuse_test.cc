// When the V8 sandbox reuses an instance across calls, and the prototype's compiled Rust modules
// (arrow-rs, no `_reset`, state in their memory that only grows) run through it call after call.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "higgins/arrow/record_batch.h"
#include "udf/abi.h"
#include "udf/engine.h"
#include "udf/test_modules.h"

namespace higgins::udf {
namespace {

using testing::CompileTestModule;
using testing::Encode;
using testing::SampleBatch;
using testing::V8;

constexpr int kCalls = 300;

std::unique_ptr<Sandbox> NewSandbox() {
  auto sandbox = V8().NewSandbox();
  EXPECT_TRUE(sandbox.ok()) << sandbox.status().ToString();
  return sandbox.ok() ? std::move(sandbox).value() : nullptr;
}

std::shared_ptr<const CompiledModule> CompilePrototypeModule(const std::string& name) {
  const std::string path =
      std::string(HIGGINS_SHARED_DIR) + "/testdata/prototype-udf/" + name + ".wasm";
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  auto compiled = V8().Compile(bytes.str());
  EXPECT_TRUE(compiled.ok()) << name << ": " << compiled.status().ToString();
  return compiled.ok() ? *compiled : nullptr;
}

// {id: utf8 not null, data: int32}: the schema of the prototype's map and reduce examples.
arrow::SchemaPtr Schema() {
  return arrow::MakeSchema({arrow::Field("id", arrow::DataType::Utf8(), false),
                            arrow::Field("data", arrow::DataType::Int32())});
}

struct Row {
  std::string id;
  int32_t data;
};

arrow::RecordBatch Batch(const std::vector<Row>& rows) {
  arrow::ArrayBuilder ids(arrow::DataType::Utf8());
  arrow::ArrayBuilder data(arrow::DataType::Int32());
  for (const Row& row : rows) {
    EXPECT_TRUE(ids.AppendBinary(row.id).ok());
    data.AppendPrimitive<int32_t>(row.data);
  }
  auto batch = arrow::RecordBatch::Make(Schema(), static_cast<int64_t>(rows.size()),
                                        {ids.Finish(), data.Finish()});
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

// Checks that `result` (a module's bytes) holds exactly `expected`, row by row.
void ExpectRows(const Result<std::string>& result, const std::vector<Row>& expected, int call) {
  ASSERT_TRUE(result.ok()) << "call " << call << ": " << result.status().ToString();
  auto batch = DecodeResult(*result, Schema());
  ASSERT_TRUE(batch.ok()) << "call " << call << ": " << batch.status().ToString();
  ASSERT_EQ(batch->num_rows(), static_cast<int64_t>(expected.size())) << "call " << call;
  for (size_t r = 0; r < expected.size(); ++r) {
    const auto row = static_cast<int64_t>(r);
    EXPECT_EQ(batch->column(0).BinaryValue(row), expected[r].id) << "call " << call << " row " << r;
    ASSERT_FALSE(batch->column(1).IsNull(row)) << "call " << call << " row " << r;
    EXPECT_EQ(batch->column(1).Value<int32_t>(row), expected[r].data)
        << "call " << call << " row " << r;
  }
}

// 1 to 5 distinct keys among 40, values of both signs. Not more rows: the prototype's modules log
// each batch they read and write into 1000-byte slots and trap on a longer line (at about 7 rows
// of these), whatever the host does.
std::vector<Row> RowsOfCall(int call) {
  std::vector<Row> rows;
  const int count = 1 + call % 5;
  for (int r = 0; r < count; ++r) {
    rows.push_back(
        Row{"key-" + std::to_string((call * 7 + r) % 40), (call * 37 + r) % 2001 - 1000});
  }
  return rows;
}

TEST(V8ReuseTest, ModuleWithoutResetGetsAFreshInstanceForEveryCall) {
  auto module = CompileTestModule("single_use_map");
  ASSERT_NE(module, nullptr);
  EXPECT_FALSE(module->info().has_reset);
  auto sandbox = NewSandbox();
  const std::string input = Encode(SampleBatch(2));
  const std::string_view inputs[] = {input};
  for (int call = 0; call < 100; ++call) {
    auto out = sandbox->Call(*module, inputs, {});
    ASSERT_TRUE(out.ok()) << "call " << call << ": " << out.status().ToString();
    EXPECT_EQ(*out, input);
  }
}

TEST(V8ReuseTest, ModuleWithResetKeepsItsInstanceUntilAFailure) {
  // The same module with `_reset`: the host reuses its instance, so the second call meets the
  // state of the first and traps; the failed instance is dropped and the third call is fresh.
  auto module = CompileTestModule("single_use_map_reset");
  ASSERT_NE(module, nullptr);
  auto sandbox = NewSandbox();
  const std::string input = Encode(SampleBatch(1));
  const std::string_view inputs[] = {input};
  EXPECT_TRUE(sandbox->Call(*module, inputs, {}).ok());
  EXPECT_EQ(sandbox->Call(*module, inputs, {}).status(),
            Status::InvalidArgument("the module trapped in 'run': RuntimeError: unreachable"));
  EXPECT_TRUE(sandbox->Call(*module, inputs, {}).ok());
}

TEST(V8ReuseTest, PrototypeMapDoublesEveryValueOnEveryCall) {
  auto module = CompilePrototypeModule("basic_map");
  ASSERT_NE(module, nullptr);
  ASSERT_EQ(module->info().run_kind, RunKind::kMap);
  auto sandbox = NewSandbox();
  for (int call = 0; call < kCalls; ++call) {
    const std::vector<Row> rows = RowsOfCall(call);
    std::vector<Row> expected = rows;
    for (Row& row : expected) row.data *= 2;
    const std::string input = Encode(Batch(rows));
    const std::string_view inputs[] = {input};
    ExpectRows(sandbox->Call(*module, inputs, {}), expected, call);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(V8ReuseTest, PrototypeReduceSumsEveryKeyOnEveryCall) {
  // prev holds each key's running sum, cur its next value: the result is the new sum. Keys
  // start at their first value (the broker copies a key's first record without a call).
  auto module = CompilePrototypeModule("basic_reduce");
  ASSERT_NE(module, nullptr);
  ASSERT_EQ(module->info().run_kind, RunKind::kReduce);
  auto sandbox = NewSandbox();
  std::map<std::string, int32_t> sums;
  for (int key = 0; key < 40; ++key) sums["key-" + std::to_string(key)] = key - 20;
  for (int call = 0; call < kCalls; ++call) {
    const std::vector<Row> cur = RowsOfCall(call);
    std::vector<Row> prev, expected;
    for (const Row& row : cur) {
      prev.push_back(Row{row.id, sums[row.id]});
      expected.push_back(Row{row.id, sums[row.id] + row.data});
    }
    const std::string prev_bytes = Encode(Batch(prev));
    const std::string cur_bytes = Encode(Batch(cur));
    const std::string_view inputs[] = {prev_bytes, cur_bytes};
    ExpectRows(sandbox->Call(*module, inputs, {}), expected, call);
    if (::testing::Test::HasFatalFailure()) return;
    for (const Row& row : expected) sums[row.id] = row.data;
  }
}

}  // namespace
}  // namespace higgins::udf
