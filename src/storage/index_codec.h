#pragma once

#include "higgins/buffer.h"
#include "higgins/result.h"
#include "storage/index_log.h"
#include "storage/log_frame.h"

/// Sans-I/O encoding of IndexRecord payloads (docs/storage-format.md, "Index files"): LEB128
/// varints, the timestamp zigzag-encoded. Stateless and thread-safe; DecodeIndexRecord is a
/// fuzz entry point.
namespace higgins::storage {

/// InvalidArgument unless `record` is well-formed: one key index per row, each below the
/// number of keys, at most row_count keys.
Status CheckIndexRecord(const IndexRecord& record);

/// Appends the payload of `record` (which CheckIndexRecord accepts) to `out`.
void EncodeIndexRecord(const IndexRecord& record, BufferBuilder& out);

/// Decodes a payload. Errors: Corruption for truncated or trailing bytes, a varint over its
/// width, or a record CheckIndexRecord would refuse.
Result<IndexRecord> DecodeIndexRecord(ByteSpan payload);

}  // namespace higgins::storage
