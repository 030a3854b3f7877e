#pragma once

#include <string>
#include <vector>

#include "higgins/arrow/record_batch.h"

namespace higgins::interop {

/// Order-dependent aggregates of a table, computed identically by tools/interop/lib/summary.mjs so
/// that two Arrow implementations reading the same file can be compared without printing every
/// row. Lines (docs/conformance.md):
///   {"rows":N,"batches":B}
///   {"column":"c","type":"<canonical tag>","nulls":K,<aggregate>}
/// where the aggregate is, over valid slots in row order: "sum" as an exact decimal string for
/// integer, temporal and decimal types (wrapping modulo 2^128); "sum" as a canonical float (a
/// double accumulated in row order) for floats; "true" (count) for bool; "bytes" (total length)
/// and "fnv1a64" (16 hex digits of FNV-1a 64 over each value followed by a 0xff byte) for utf8
/// and binary types; nothing extra for null columns.
std::vector<std::string> SummarizeTable(const arrow::Schema& schema,
                                        const std::vector<arrow::RecordBatch>& batches);

}  // namespace higgins::interop
