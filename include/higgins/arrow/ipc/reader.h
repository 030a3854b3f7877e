#pragma once

#include <string_view>
#include <vector>

#include "higgins/arrow/ipc/options.h"
#include "higgins/arrow/record_batch.h"
#include "higgins/buffer.h"

namespace higgins::arrow::ipc {

/// A decoded IPC stream or file: the schema and every record batch, in order.
struct ReadResult {
  SchemaPtr schema;
  std::vector<RecordBatch> batches;
};

/// Whether `bytes` begin as Arrow IPC does: a file's "ARROW1" magic or a stream's continuation
/// marker 0xFFFFFFFF (Columnar.rst, "Encapsulated message format"). JSON, CSV and text never
/// do. A guess from the first bytes only: the bytes may still be malformed IPC. Legacy
/// (pre-0.15) streams, which begin with the metadata size, are not recognised.
bool LooksLikeIpc(std::string_view bytes);

/// Decodes a complete Arrow IPC stream (Columnar.rst "IPC Streaming Format") held in `bytes`.
/// Accepts the continuation-marker framing and the legacy (pre-0.15) framing, a missing
/// end-of-stream marker, and LZ4-frame/ZSTD compressed bodies. Dictionary-encoded fields
/// (replacement and delta dictionaries included) decode to their plain value type, in the schema
/// and in the batches (docs/arrow-ipc.md, "Dictionary-encoded fields"). Batches are zero-copy
/// views into `bytes` where the body is uncompressed and not dictionary-encoded. Errors:
/// Corruption for malformed bytes (dictionary indices out of range, unknown dictionary ids,
/// deltas before their base included); NotSupported naming the field and type for types Higgins
/// does not implement (lists, structs, unions, maps, intervals, decimal256, views, ...);
/// ResourceExhausted for limit violations.
Result<ReadResult> ReadStream(const Buffer& bytes, const ReadOptions& options = {});

/// Decodes an Arrow IPC file ("ARROW1" magic, footer with record batch blocks). The schema comes
/// from the footer (files without a leading schema message, as apache-arrow JS writes, are fine).
/// The footer's dictionary blocks are applied first, in footer order (deltas append; a second
/// non-delta dictionary for an id is Corruption, as the file format allows no replacement).
Result<ReadResult> ReadFile(const Buffer& bytes, const ReadOptions& options = {});

/// Decodes one encapsulated RecordBatch message (continuation marker, int32 metadata size,
/// metadata, body: one message as StreamWriter writes it) of a stream whose schema the caller
/// already has, so readers that keep messages apart from their schema message (storage
/// segments) need not decode the schema again. `message` must hold exactly that message:
/// Corruption when bytes are missing or left over, when it is another kind of message, or as
/// ReadStream for malformed metadata or body. The batch's schema is `schema`; its buffers are
/// zero-copy views into `message` when `message` is 8-byte aligned in memory.
Result<RecordBatch> ReadRecordBatchMessage(const SchemaPtr& schema, const Buffer& message,
                                           const ReadOptions& options = {});

/// ReadFile when `bytes` starts with "ARROW1", else ReadStream.
Result<ReadResult> ReadStreamOrFile(const Buffer& bytes, const ReadOptions& options = {});

}  // namespace higgins::arrow::ipc
