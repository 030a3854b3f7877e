// Fuzzes what the broker reads from UDF authors and UDFs: uploaded module bytes (the libwabt
// checks of udf::CheckModule, which run before V8 sees a module) and UDF results
// (udf::DecodeResult). Every input must give a value or an error Status; a crash, an assertion
// inside libwabt (Debian builds it with assertions on), a sanitizer report or a leak is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "higgins/arrow/schema.h"
#include "udf/abi.h"
#include "udf/module_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  higgins::udf::ModuleLimits limits;
  limits.max_module_bytes = 1 << 20;
  (void)higgins::udf::CheckModule(bytes, limits);
  using higgins::arrow::DataType;
  static const higgins::arrow::SchemaPtr schema = higgins::arrow::MakeSchema(
      {{"id", DataType::Utf8(), true}, {"data", DataType::Int32(), true}});
  auto batch = higgins::udf::DecodeResult(bytes, schema);
  if (batch.ok() && batch->schema() != schema) __builtin_trap();
  return 0;
}
