#pragma once

#include <string>

#include "higgins/arrow/record_batch.h"

namespace higgins::conformance {

/// Human-readable differences between two schemas, one line per differing field or metadata
/// entry; empty when they are equal.
std::string DescribeSchemaDifference(const arrow::Schema& expected, const arrow::Schema& actual);

/// Human-readable differences between two batches: schema, row count, then for each unequal
/// column its type, length and null count, and up to `max_rows` differing rows rendered as
/// canonical values ("column 'x' row 3: expected 27, got null"). Empty when
/// expected.Equals(actual).
std::string DescribeBatchDifference(const arrow::RecordBatch& expected,
                                    const arrow::RecordBatch& actual, int max_rows = 8);

}  // namespace higgins::conformance
