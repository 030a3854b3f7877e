#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "higgins/arrow/ipc/reader.h"
#include "higgins/result.h"

namespace higgins::conformance {

/// Decodes a whole document of Arrow's integration-test JSON format (Arrow docs, "Integration
/// Testing"): {"schema": {"fields": [...], "metadata": [...]}, "batches": [{"count", "columns"}],
/// "dictionaries": [...]} into the schema and record batches an IPC reader must produce for the
/// matching .stream/.arrow_file. Field metadata and schema metadata keep their order. A
/// dictionary-encoded field gets its value type, and its columns the dictionary values their
/// indices select (the JSON holds one dictionary per id for the whole document).
/// Errors: NotSupported naming the first field whose type (dictionary values included) Higgins
/// does not implement; Corruption for malformed JSON or data that contradicts the schema.
Result<arrow::ipc::ReadResult> ParseIntegrationJson(std::string_view json);

/// The "count" of every batch, in order, without decoding any column (works for every case,
/// supported or not).
Result<std::vector<int64_t>> IntegrationBatchRowCounts(std::string_view json);

}  // namespace higgins::conformance
