#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "higgins.pb.h"
#include "higgins/arrow/record_batch.h"
#include "higgins/result.h"
#include "protocol/reply_size.h"

namespace higgins::server {

/// A reply of `type` to `request`, carrying its correlation id when it has one.
higgins::wire::Message ReplyTo(const higgins::wire::Message& request,
                               higgins::wire::Message::Type type);

/// The lines of `status`'s message, each escaped to valid UTF-8 (messages quote client bytes:
/// stream names, keys), or the code's name when the message is empty.
std::vector<std::string> ErrorLines(const Status& status);

/// Sets `errors` (one entry per line of the status message, invalid UTF-8 escaped) and `code`
/// of a reply body that has both.
template <typename Body>
void SetError(Body* body, const Status& status);

/// The last line of an error list that was cut to fit a frame: "... and N more error line(s),
/// left out to keep the reply within the frame limit".
std::string LeftOutErrorsLine(size_t lines);

/// SetError within a frame limit: `size` is the reply's size with `body` as it is (no errors
/// yet). The lines that fit are kept, in order, with room for the code; when some do not, the
/// last line says how many were left out.
template <typename Body>
void SetErrorWithin(Body* body, const Status& status, protocol::ReplySize size);

/// Cuts the `errors` of `reply`'s body (when it has them) so that `reply` fits in `limit`
/// bytes: its last lines go, replaced by one saying how many were left out. Returns whether the
/// reply fits now. The last resort for replies whose errors were not sized as they were made.
bool CutErrorsToFit(higgins::wire::Message* reply, size_t limit);

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
