#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "higgins/arrow/record_batch.h"
#include "higgins/arrow/schema.h"
#include "higgins/result.h"

namespace higgins::udf {

/// The data half of the UDF ABI (docs/udf-abi.md), sans-I/O: how batches become
/// the bytes a module reads and how a module's result bytes become a batch. The framing (an
/// 8-byte big-endian length before the bytes) is the Sandbox's job.

/// An Arrow IPC stream of `batch`: schema message, one record batch message, end-of-stream
/// marker (no compression, 8-byte alignment). Errors: those of arrow::ipc::StreamWriter for what
/// no reader would accept (ResourceExhausted for a batch over the IPC limits, such as a body over
/// 2 GiB; InvalidArgument for a batch whose buffers do not match its schema).
Result<std::string> EncodeBatch(const arrow::RecordBatch& batch);

/// Decodes a module's result: an Arrow IPC stream with a schema and exactly one record batch.
/// The end-of-stream marker may be missing (the prototype's modules omit it). The batch is
/// fully validated (untrusted bytes), then checked against `expected`: the same field names
/// in the same order with the same types; nullability of the result's fields is ignored but a
/// null in a field `expected` declares non-nullable is an error. The returned batch carries
/// `expected` as its schema.
///
/// Errors (all InvalidArgument; the caller names the stream with WithContext):
///   - "the module's result is not a valid Arrow IPC stream: <reader's message>" (also for
///     bytes over the IPC reader's limits, and for a stream with no schema message);
///   - "the module's result has N record batches; exactly one is expected";
///   - "the module's result schema differs from the stream's: field 1 is 'data: int64' where
///     'data: int32' is expected" (every differing field), or "...: it has 3 fields (a, b, c)
///     where 2 are expected (a, b)";
///   - "the module's result has N null(s) in field 'x', which the stream's schema declares not
///     null".
Result<arrow::RecordBatch> DecodeResult(std::string_view ipc_stream,
                                        const arrow::SchemaPtr& expected);

}  // namespace higgins::udf
