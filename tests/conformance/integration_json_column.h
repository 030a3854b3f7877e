#pragma once

#include <simdjson.h>

#include <cstdint>

#include "higgins/arrow/array.h"
#include "higgins/arrow/schema.h"

namespace higgins::conformance {

/// Builds the array of one column of an integration-test JSON batch ({"name", "count",
/// "VALIDITY", "DATA", "OFFSET"}) for `field`, whose type ParseIntegrationType produced.
/// DATA holds numbers for integers up to 32 bits, floats, date32 and time32; decimal strings for
/// 64-bit integer types and decimals; booleans for bool; upper- or lower-case hex for binary
/// types; strings for utf8. Values behind a 0 in VALIDITY are ignored. OFFSET, when present, must
/// agree with the byte lengths of DATA.
/// Errors: Corruption naming the field and row for anything malformed or out of range.
Result<arrow::Array> ParseIntegrationColumn(const arrow::Field& field, simdjson::dom::object column,
                                            int64_t count);

}  // namespace higgins::conformance
