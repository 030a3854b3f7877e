#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "higgins/arrow/record_batch.h"
#include "tests/support/canonical_type.h"

namespace higgins::testing {

/// The canonical text rendering shared by the C++ and JavaScript sides of the interop tests
/// (tools/interop/lib/canonical.mjs renders the same; docs/conformance.md defines it). Two
/// implementations that decode the same IPC bytes correctly print identical lines.
///
/// JSON text of slot `i`: null for a null slot (and every slot of the null type); bool as
/// true/false; integers of 32 bits or fewer, date32 (days) and time32 as numbers; every 64-bit
/// integer type (int64, uint64, date64, timestamp, time64, duration) and decimal128 (the
/// unscaled integer) as a decimal string; floats as JS prints the double, except "NaN",
/// "Infinity", "-Infinity" and "-0", which are strings; utf8 as a JSON string; binary types as a
/// lower-case hex string.
std::string CanonicalValue(const arrow::Array& array, int64_t i);

/// {"schema":[{"name":"a","type":"int32","nullable":true},...]}
std::string CanonicalSchemaLine(const arrow::Schema& schema);

/// {"batch":index,"rows":rows}
std::string CanonicalBatchLine(int64_t index, int64_t rows);

/// {"field":value,...} in field order.
std::string CanonicalRowLine(const arrow::RecordBatch& batch, int64_t row);

/// The schema line, then for each batch its batch line followed by one line per row.
std::vector<std::string> CanonicalLines(const arrow::Schema& schema,
                                        const std::vector<arrow::RecordBatch>& batches);

}  // namespace higgins::testing
