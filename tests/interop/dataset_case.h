#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "higgins/arrow/record_batch.h"
#include "higgins/result.h"

namespace higgins::interop {

/// One case of tools/interop/dataset.json, built with arrow::ArrayBuilder: the batches a writer
/// must write. For a case marked "sliced", each batch is the middle slice of a batch built from
/// reversed rows + rows + reversed rows, so it has a non-zero offset (not a multiple of 8 unless
/// the row count is).
struct DatasetCase {
  std::string name;
  arrow::SchemaPtr schema;
  std::vector<arrow::RecordBatch> batches;
};

/// Loads case `name` from the dataset file at `path` (format: docs/conformance.md).
/// Errors: IOError if unreadable, NotFound for an unknown case, InvalidArgument for a value that
/// is not the canonical form of its field's type (naming case, batch, row and field).
Result<DatasetCase> LoadDatasetCase(const std::string& path, std::string_view name);

}  // namespace higgins::interop
