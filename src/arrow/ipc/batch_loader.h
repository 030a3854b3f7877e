#pragma once

#include "arrow/ipc/metadata.h"
#include "higgins/arrow/ipc/options.h"
#include "higgins/arrow/record_batch.h"
#include "higgins/buffer.h"

namespace higgins::arrow::ipc {

/// Turns a decoded RecordBatch header and its body into a RecordBatch of `schema`.
///
/// Always runs the structural checks of docs/arrow-ipc.md ("Validation"): one node per field,
/// the right number of buffers for the types, node lengths equal to the batch length,
/// 0 <= null_count <= length (ignored for the null type), every buffer inside the body, buffers
/// large enough for their length, a validity bitmap whenever null_count > 0. Then, when
/// options.validate_full, arrow::ValidateFull (offsets, UTF-8, null counts, decimal precision).
///
/// Uncompressed buffers are zero-copy slices of `body` (they share its owner) when 8-byte
/// aligned in memory, else copies; compressed ones are decompressed into new buffers. Every
/// loaded buffer is 8-byte aligned. Errors: Corruption naming the field and check,
/// ResourceExhausted for decompression limits.
Result<RecordBatch> LoadRecordBatch(const SchemaPtr& schema, const RecordBatchHeader& header,
                                    const Buffer& body, const ReadOptions& options);

}  // namespace higgins::arrow::ipc
