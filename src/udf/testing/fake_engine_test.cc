#include "udf/testing/fake_engine.h"

#include <gtest/gtest.h>

#include <thread>

#include "udf/abi.h"
#include "udf/test_modules.h"

namespace higgins::udf {
namespace {

using testing::Encode;
using testing::SampleBatch;

// The `double` UDF of docs/architecture.md, "Derived streams": `data` times two.
Result<arrow::RecordBatch> Double(std::span<const arrow::RecordBatch> inputs) {
  const arrow::RecordBatch& in = inputs[0];
  arrow::ArrayBuilder data(arrow::DataType::Int32());
  for (int64_t i = 0; i < in.num_rows(); ++i) {
    data.AppendPrimitive<int32_t>(in.column(1).Value<int32_t>(i) * 2);
  }
  return arrow::RecordBatch::Make(in.schema(), in.num_rows(), {in.column(0), data.Finish()});
}

// A running sum: prev.data + cur.data.
Result<arrow::RecordBatch> Sum(std::span<const arrow::RecordBatch> inputs) {
  const arrow::RecordBatch& prev = inputs[0];
  const arrow::RecordBatch& cur = inputs[1];
  arrow::ArrayBuilder data(arrow::DataType::Int32());
  for (int64_t i = 0; i < cur.num_rows(); ++i) {
    data.AppendPrimitive<int32_t>(prev.column(1).Value<int32_t>(i) +
                                  cur.column(1).Value<int32_t>(i));
  }
  return arrow::RecordBatch::Make(cur.schema(), cur.num_rows(), {cur.column(0), data.Finish()});
}

class FakeEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine_.Register("double", RunKind::kMap, Double);
    engine_.Register("sum", RunKind::kReduce, Sum);
    engine_.Register("broken", RunKind::kMap, [](auto) -> Result<arrow::RecordBatch> {
      return Status::InvalidArgument("the module trapped in 'run': RuntimeError: unreachable");
    });
  }

  std::unique_ptr<Sandbox> NewSandbox() {
    auto sandbox = engine_.NewSandbox();
    EXPECT_TRUE(sandbox.ok());
    return std::move(sandbox).value();
  }

  FakeEngine engine_;
};

TEST_F(FakeEngineTest, InspectReportsTheRegisteredKind) {
  auto info = engine_.Inspect("fake:double");
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->run_kind, RunKind::kMap);
  info = engine_.Inspect("fake:sum");
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->run_kind, RunKind::kReduce);
  EXPECT_EQ(engine_.Inspect("fake:missing").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(engine_.Inspect(std::string("\0asm\1\0\0\0", 8)).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(engine_.Compile("double").status().code(), StatusCode::kInvalidArgument);
}

TEST_F(FakeEngineTest, MapRunsTheFunctionOnDecodedBatches) {
  auto module = engine_.Compile("fake:double");
  ASSERT_TRUE(module.ok());
  auto sandbox = NewSandbox();
  const arrow::RecordBatch batch = SampleBatch(3);  // data 1, 2, 3
  const std::string input = Encode(batch);
  const std::string_view inputs[] = {input};
  auto out = sandbox->Call(**module, inputs, {});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  auto decoded = DecodeResult(*out, batch.schema());
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->column(1).Value<int32_t>(0), 2);
  EXPECT_EQ(decoded->column(1).Value<int32_t>(2), 6);
  EXPECT_EQ(engine_.calls(), 1);
}

TEST_F(FakeEngineTest, ReduceGetsPrevAndCur) {
  auto module = engine_.Compile("fake:sum");
  ASSERT_TRUE(module.ok());
  auto sandbox = NewSandbox();
  const std::string prev = Encode(SampleBatch(3, 10));  // 10, 11, 12
  const std::string cur = Encode(SampleBatch(3, 1));    // 1, 2, 3
  const std::string_view inputs[] = {prev, cur};
  auto out = sandbox->Call(**module, inputs, {});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  auto decoded = DecodeResult(*out, SampleBatch(1).schema());
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->column(1).Value<int32_t>(0), 11);
  EXPECT_EQ(decoded->column(1).Value<int32_t>(2), 15);
}

TEST_F(FakeEngineTest, ErrorsAreReturnedAsIs) {
  auto broken = engine_.Compile("fake:broken");
  auto sum = engine_.Compile("fake:sum");
  ASSERT_TRUE(broken.ok() && sum.ok());
  auto sandbox = NewSandbox();
  const std::string input = Encode(SampleBatch(1));
  const std::string_view one[] = {input};
  EXPECT_EQ(sandbox->Call(**broken, one, {}).status(),
            Status::InvalidArgument("the module trapped in 'run': RuntimeError: unreachable"));
  EXPECT_EQ(sandbox->Call(**sum, one, {}).status().code(), StatusCode::kInvalidArgument);
  const std::string_view garbage[] = {"not arrow"};
  auto out = sandbox->Call(**broken, garbage, {});
  EXPECT_NE(out.status().message().find("input 0 is not a valid Arrow IPC stream"),
            std::string::npos);
  EXPECT_EQ(engine_.calls(), 3);
}

TEST_F(FakeEngineTest, CallsAreCountedAcrossThreads) {
  auto module = engine_.Compile("fake:double");
  ASSERT_TRUE(module.ok());
  const std::string input = Encode(SampleBatch(2));
  auto worker = [&] {
    auto sandbox = NewSandbox();
    const std::string_view inputs[] = {input};
    for (int i = 0; i < 100; ++i) EXPECT_TRUE(sandbox->Call(**module, inputs, {}).ok());
  };
  std::thread a(worker);
  std::thread b(worker);
  a.join();
  b.join();
  EXPECT_EQ(engine_.calls(), 200);
}

}  // namespace
}  // namespace higgins::udf
