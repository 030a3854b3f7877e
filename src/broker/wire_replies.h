#pragma once

#include <string>

#include "higgins.pb.h"
#include "higgins/arrow/record_batch.h"
#include "higgins/result.h"

namespace higgins::broker {

/// A reply of `type` to `request`, carrying its correlation id when it has one.
higgins::wire::Message ReplyTo(const higgins::wire::Message& request,
                               higgins::wire::Message::Type type);

/// Sets `errors` (one entry per line of the status message, invalid UTF-8 escaped) and `code`
/// of a reply body that has both.
template <typename Body>
void SetError(Body* body, const Status& status);

/// An Arrow IPC stream: `schema`, then `batch` when not null, then end-of-stream.
Result<std::string> EncodeIpc(const arrow::SchemaPtr& schema, const arrow::RecordBatch* batch);

}  // namespace higgins::broker

#include "broker/wire_replies_inl.h"
