#pragma once

#include <string>
#include <string_view>

#include "higgins/arrow/record_batch.h"
#include "udf/engine.h"

/// Helpers shared by the UDF tests.
namespace higgins::udf::testing {

/// The bytes of testdata/<name>.wasm, compiled from src/udf/testdata/<name>.wat at build time.
std::string TestModule(std::string_view name);

/// {id: utf8 not null, data: int32}, `rows` rows: id "0", "1", ..., data = first_value + row.
arrow::RecordBatch SampleBatch(int rows, int32_t first_value = 1);

/// EncodeBatch(batch), which must succeed.
std::string Encode(const arrow::RecordBatch& batch);

/// The process's V8 engine with default EngineOptions (V8's memory cap is process-wide, so
/// every test shares these options).
Engine& V8();

/// Compiles a test module with V8(); the test fails if it does not compile.
std::shared_ptr<const CompiledModule> CompileTestModule(std::string_view name);

}  // namespace higgins::udf::testing
