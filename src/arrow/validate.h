#pragma once

#include "higgins/arrow/array.h"
#include "higgins/arrow/record_batch.h"

namespace higgins::arrow {

/// Full validation of an array that came from outside (IPC, a file, a UDF), following the checks
/// of the Arrow spec's Security.rst: buffer count for the type, buffer sizes large enough for
/// offset + length slots, null_count equal to the bitmap's count of zero bits, var-binary offsets
/// non-negative, monotonic and within the data buffer, utf8 data valid UTF-8 (RFC 3629) per slot.
/// Decimal values are not checked against their precision: other Arrow writers (the Arrow
/// project's own integration files among them) emit wider values, and reading them is safe; JSON
/// ingestion enforces the precision instead. Errors: Corruption (or InvalidArgument for bad type
/// parameters) with a message naming the failing check and slot.
Status ValidateFull(const Array& array);

/// RecordBatch::Make's structural checks are assumed; runs ValidateFull on every column and
/// prefixes errors with the column name.
Status ValidateFull(const RecordBatch& batch);

}  // namespace higgins::arrow
