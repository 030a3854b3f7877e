#pragma once

#include <string>
#include <string_view>

#include "higgins.pb.h"
#include "higgins/arrow/record_batch.h"
#include "higgins/result.h"

namespace higgins::server {

/// A reply of `type` to `request`, carrying its correlation id when it has one.
higgins::wire::Message ReplyTo(const higgins::wire::Message& request,
                               higgins::wire::Message::Type type);

/// Sets `errors` (one entry per line of the status message, invalid UTF-8 escaped) and `code`
/// of a reply body that has both.
template <typename Body>
void SetError(Body* body, const Status& status);

/// Fills one `Record` of a query reply or a push: `data` (the Arrow IPC stream of rows.batch),
/// `stream`, the partition `key` (in its wire form), `offset` (a window's number on a window
/// stream), the count and timestamps of `rows` (a QueryRows), and for a window (`window` not
/// null: WindowRows or WindowBoundsInfo) its bounds, closed flag and first member offset.
template <typename Rows, typename Window>
void FillRecord(higgins::wire::Record* record, std::string data, std::string_view stream,
                std::string_view key, uint64_t offset, const Rows& rows, const Window* window);

/// An Arrow IPC stream: `schema`, then `batch` when not null, then end-of-stream.
Result<std::string> EncodeIpc(const arrow::SchemaPtr& schema, const arrow::RecordBatch* batch);

}  // namespace higgins::server

#include "server/wire_replies_inl.h"
