#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "higgins/status.h"
#include "kafka/errors.h"
#include "kafka/request_header.h"
#include "kafka/wire.h"
#include "server/kafka/kafka_handler.h"

// Helpers shared by the Kafka handler's request files (kafka_handler.cc, kafka_produce.cc,
// kafka_fetch.cc).
namespace higgins::server::kafka {

/// A response frame: INT32 size, the response header for `header`'s API and version, then what
/// `body` writes.
std::string ResponseFrame(const higgins::kafka::RequestHeader& header,
                          const std::function<void(higgins::kafka::Writer&)>& body);

/// A reply that closes the connection, saying why in the broker's log.
KafkaReply CloseWith(std::string reason);

/// The Kafka error code for a broker API error (docs/kafka.md, "Errors").
higgins::kafka::ErrorCode ErrorFor(const Status& status);

/// Whether `text` is exactly one JSON object (whitespace around it allowed): braces and
/// brackets balance outside strings and close only at the end. Not a full JSON check (the
/// stream's JSON reader makes it): it keeps one Kafka record from becoming several rows.
bool IsOneJsonObject(std::string_view text);

/// Whether `value` starts as an Arrow IPC file ("ARROW1") or stream (a continuation marker or
/// a message length) would.
bool LooksLikeArrowIpc(std::string_view value);

}  // namespace higgins::server::kafka
