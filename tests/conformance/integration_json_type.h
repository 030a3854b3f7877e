#pragma once

#include <simdjson.h>

#include <string_view>

#include "higgins/arrow/type.h"
#include "higgins/result.h"

namespace higgins::conformance {

/// Maps the "type" object of one field of Arrow's integration-test JSON (Arrow docs, "Integration
/// Testing", JSON test data format) to a DataType: null, bool, int, floatingpoint, utf8,
/// largeutf8, binary, largebinary, fixedsizebinary, decimal (bitWidth 128), date, time,
/// timestamp, duration.
/// Errors: NotSupported "field 'F': type T is not supported" for every other type (T uses Arrow
/// C++'s spelling: list, large_list, struct, map, union, interval, decimal256, ...);
/// Corruption for a type object with missing or invalid members.
Result<arrow::DataType> ParseIntegrationType(simdjson::dom::object type,
                                             std::string_view field_name);

}  // namespace higgins::conformance
